/**
 * The one-click review reports: a single self-contained HTML file each —
 * Compare's (two runs: identity, the verdict sentence, the delta table, the
 * invariants of both sides, the charts and timelines) and Replay's (one run:
 * identity, the verdicts at the cursor and for the whole run, the
 * invariants, the key charts and the timeline). Both are built from the same
 * parts below (document shell, identity list, verdict lines, invariants
 * table, inline charts). No script, no external reference (styles inline in
 * one <style>, pictures inline), so a report reads the same offline, attached
 * to a design document or opened from a mail years later. Pure string
 * building; the views gather the parts (`compare/compareReport.ts`,
 * `replay/replayReport.ts`).
 */
import { BUG_TOGGLES, type ClientConfig } from '../../core/client/config';
import type { InvariantComparison, InvariantVerdict } from '../../core/replay/compare';
import type { Scenario } from '../../core/sim/scenario';
import { invariantLabel } from '../store/logSelectors';
import { selectConfigSummary } from '../store/selectors';
import type { DeltaSection } from '../compare/deltaRows';
import { faultsChangeNodes, nodesText, topologyAtText, type RunIdentity } from './caption';
import { cleanSvgMarkup, escapeXml as esc } from './svgDoc';

export interface ReportChart {
  readonly title: string;
  /** a standalone SVG document */
  readonly svg: string;
}

/** what every report says about the scenario */
export interface ReportRun {
  readonly title: string;
  readonly scenario: string;
  /** null: unknown (an imported events file) */
  readonly seed: number | null;
  readonly cluster: string;
  readonly source: string;
  readonly workload: string;
  /** the shareable link, as text (not a live reference) */
  readonly link: string | null;
}

export interface ReportSide {
  readonly id: 'a' | 'b';
  readonly label: string;
  readonly client: ClientConfig;
  /** the caption's verdict line for this run */
  readonly verdict: string;
}

export interface ReviewReportInput extends ReportRun {
  readonly seed: number;
  readonly sides: readonly ReportSide[];
  readonly verdictSentence: string;
  /** which side served users better (colours the sentence) */
  readonly better: 'a' | 'b' | null;
  readonly sections: readonly DeltaSection[];
  readonly invariants: readonly InvariantComparison[];
  readonly charts: readonly ReportChart[];
}

const STYLE = `
:root { color-scheme: dark; }
body { margin: 0; padding: 28px 36px 48px; background: #0b1120; color: #e2e8f0; font: 14px/1.45 Inter, system-ui, -apple-system, 'Segoe UI', sans-serif; }
h1 { font-size: 22px; margin: 0 0 4px; color: #f9a8d4; }
h2 { font-size: 16px; margin: 28px 0 10px; color: #e2e8f0; border-bottom: 1px solid #23304d; padding-bottom: 4px; }
.muted { color: #94a3b8; }
dl.identity { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 12px 0; }
dl.identity dt { color: #94a3b8; }
dl.identity dd { margin: 0; }
.side-a { color: #38bdf8; } .side-b { color: #f472b6; }
.verdict { font-size: 16px; font-weight: 600; padding: 10px 14px; border-radius: 8px; background: #111a2e; border-left: 4px solid #4ade80; }
table { border-collapse: collapse; width: 100%; max-width: 1100px; font-size: 13px; }
th, td { padding: 5px 10px; border-bottom: 1px solid #23304d; text-align: left; vertical-align: top; }
thead th { color: #94a3b8; font-weight: 500; }
tbody th { font-weight: 500; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.win { color: #4ade80; font-weight: 700; } td.lose { color: #ee6677; font-weight: 700; }
tr.group th { color: #94a3b8; text-transform: uppercase; font-size: 11px; letter-spacing: .06em; padding-top: 12px; }
tr.part th, tr.part td { color: #94a3b8; font-size: 12px; font-weight: 400; }
tr.part th { padding-left: 24px; }
th small { display: block; color: #64748b; font-weight: 400; }
.badge { padding: 1px 7px; border-radius: 999px; font-size: 12px; }
p.story { padding: 8px 12px; border-radius: 8px; background: #111a2e; max-width: 1100px; }
.card { max-width: 1100px; margin: 8px 0; padding: 6px 12px; border-radius: 8px; background: #111a2e; border-left: 4px solid #e7a33e; }
.card h3 { font-size: 14px; margin: 2px 0; } .card h3 small { color: #94a3b8; font-weight: 400; margin-left: 8px; }
.card ul { margin: 4px 0; padding-left: 18px; }
.ok { background: #14532d; color: #bbf7d0; } .expected { background: #713f12; color: #fde68a; } .bad { background: #7f1d1d; color: #fecaca; }
figure { margin: 16px 0 24px; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #94a3b8; margin-bottom: 6px; }
code { font-family: 'JetBrains Mono', ui-monospace, Menlo, monospace; font-size: 12px; word-break: break-all; }
`;

/**
 * The cluster line of a scenario's identity. `atCursor`: the run's identity at a cursor (Replay's
 * identityAtCursor); when its nodes are the cluster's at that time, the line names them first, then the start's
 * ("4 nodes at 7.50 s, 3 at the start · 64 segments · …").
 */
export function clusterLine(s: Scenario, atCursor?: RunIdentity): string {
  const nodes =
    atCursor?.topologyAtMs === undefined
      ? nodesText({ nodes: s.cluster.nodes, nodesAtStart: faultsChangeNodes(s.faults) })
      : `${nodesText(atCursor)}${topologyAtText(atCursor)}, ${s.cluster.nodes} at the start`;
  return `${nodes} · ${s.cluster.segments} segments · ${s.cluster.replicas} replica(s) · ${(s.durationMs / 1000).toFixed(1)} s`;
}

const togglesOf = (c: ClientConfig | null): string => {
  if (c === null) return 'unknown (imported events)';
  const on = BUG_TOGGLES.filter((t) => c.bugs[t]);
  return on.length === 0 ? 'none (the fixed client)' : on.join(', ');
};

/** one run's client rows of the identity list (prefixed "A · " etc. in a comparison) */
function clientRows(prefix: string, heading: string, client: ClientConfig | null, verdict: string, verdictLabel = 'invariants'): [string, string][] {
  return [
    [`${prefix}${heading}`, client === null ? 'configuration unknown (imported events)' : `client: ${selectConfigSummary(client)}`],
    [`${prefix}bug toggles`, togglesOf(client)],
    [`${prefix}${verdictLabel}`, verdict.replace(/^verdict: /, '')],
  ];
}

function identitySection(run: ReportRun, extra: readonly [string, string][]): string {
  const rows: [string, string][] = [
    ['scenario', `${run.scenario} · ${run.source}`],
    ['seed', run.seed === null ? 'unknown' : String(run.seed)],
    ['cluster', run.cluster],
    ['workload', run.workload],
    ...extra,
  ];
  const dl = rows.map(([k, v]) => `<dt>${esc(k)}</dt><dd>${esc(v)}</dd>`).join('');
  return `<section id="identity"><h2>The run</h2><dl class="identity">${dl}</dl>${run.link ? `<p class="muted">Open again: <code>${esc(run.link)}</code></p>` : ''}</section>`;
}

/** one verdict paragraph: its text, the colour of its left border, data attributes (tests and readers) */
interface VerdictLine {
  readonly label?: string;
  readonly text: string;
  readonly border: string;
  readonly data: Readonly<Record<string, string>>;
}

function verdictSection(lines: readonly VerdictLine[]): string {
  const ps = lines.map((l) => {
    const data = Object.entries(l.data)
      .map(([k, v]) => ` data-${k}="${esc(v)}"`)
      .join('');
    return `<p class="verdict" style="border-left-color:${l.border}"${data}>${l.label ? `<span class="muted">${esc(l.label)}</span> ` : ''}${esc(l.text)}</p>`;
  });
  return `<section id="verdict"><h2>Verdict</h2>${ps.join('')}</section>`;
}

const VERDICT_CELL: Readonly<Record<InvariantVerdict, [string, string]>> = {
  ok: ['ok', 'kept'],
  expected: ['expected', 'violated — bug toggle on'],
  violated: ['bad', 'VIOLATED'],
};

function invariantCell(v: InvariantVerdict | null, n: number): string {
  if (v === null) return '<span class="badge">not checked</span>';
  const [cls, label] = VERDICT_CELL[v];
  return `<span class="badge ${cls}">${label}${n > 0 ? ` · ${n}×` : ''}</span>`;
}

/** one invariant's verdict in each column (null: not checked there) */
interface InvariantRowCells {
  readonly name: string;
  readonly cells: readonly { readonly verdict: InvariantVerdict | null; readonly violations: number }[];
}

function invariantsSection(columns: readonly { readonly label: string; readonly cls?: string }[], rows: readonly InvariantRowCells[]): string {
  const head = columns.map((c) => `<th${c.cls ? ` class="${c.cls}"` : ''}>${esc(c.label)}</th>`).join('');
  // the app's words (as Live's Invariants panel and Compare's table say them), the checker's name under them
  const body = rows.map((r) => `<tr data-invariant="${esc(r.name)}"><th>${esc(invariantLabel(r.name))}<small>${esc(r.name)}</small></th>${r.cells.map((c) => `<td>${invariantCell(c.verdict, c.violations)}</td>`).join('')}</tr>`).join('');
  return `<section id="invariants"><h2>Invariants</h2><table><thead><tr><th>invariant</th>${head}</tr></thead><tbody>${body}</tbody></table></section>`;
}

function chartsSection(charts: readonly ReportChart[]): string {
  // an SVG document becomes inline SVG in HTML: drop what only a file needs
  const figures = charts.map((c) => `<figure><figcaption>${esc(c.title)}</figcaption>${cleanSvgMarkup(c.svg)}</figure>`).join('');
  return `<section id="charts"><h2>Charts</h2>${figures}</section>`;
}

/** the document around the sections */
function reportDocument(title: string, subtitleHtml: string, sections: readonly string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title><style>${STYLE}</style></head>
<body>
<header><h1>${esc(title)}</h1><div class="muted">${subtitleHtml}</div></header>
${sections.join('\n')}
</body></html>
`;
}

const cell = (text: string, win: 'a' | 'b' | null, side: 'a' | 'b'): string => `<td class="num${win === side ? ' win' : win !== null ? ' lose' : ''}">${esc(text)}</td>`;

/** the A/B report (Compare) as one HTML document */
export function reviewReportHtml(r: ReviewReportInput): string {
  const sideA = r.sides.find((s) => s.id === 'a');
  const sideB = r.sides.find((s) => s.id === 'b');
  const rows = r.sections
    .map(
      (s) =>
        `<tbody><tr class="group"><th colspan="4">${esc(s.group)}</th></tr>${s.rows
          .map(
            (x) =>
              `<tr data-metric="${esc(x.id)}" data-win="${x.win ?? ''}"><th>${esc(x.label)}${x.window ? ` (${esc(x.window)})` : ''}<small>${esc(x.direction)}</small></th>${cell(x.a, x.win, 'a')}${cell(x.b, x.win, 'b')}<td class="num muted">${esc(x.delta)}</td></tr>` +
              x.parts.map((p) => `<tr class="part"><th>of which ${esc(p.label)}</th><td class="num">${esc(p.a)}</td><td class="num">${esc(p.b)}</td><td></td></tr>`).join(''),
          )
          .join('')}</tbody>`,
    )
    .join('');
  const border = r.better === 'a' ? '#38bdf8' : r.better === 'b' ? '#f472b6' : '#94a3b8';
  return reportDocument(r.title, `Zaris Churn Lab review report · same scenario, same seed, two clients · A <span class="side-a">${esc(sideA?.label ?? '')}</span> vs B <span class="side-b">${esc(sideB?.label ?? '')}</span>`, [
    identitySection(r, r.sides.flatMap((s) => clientRows(`${s.id.toUpperCase()} · `, s.label, s.client, s.verdict))),
    verdictSection([{ text: r.verdictSentence, border, data: { better: r.better ?? '' } }]),
    `<section id="delta"><h2>What changed (B − A; the better side in green, the worse in red; differences under 5 % uncoloured)</h2><table><thead><tr><th>metric</th><th class="side-a">A · ${esc(sideA?.label ?? '')}</th><th class="side-b">B · ${esc(sideB?.label ?? '')}</th><th>B − A</th></tr></thead>${rows}</table></section>`,
    invariantsSection(
      [
        { label: 'A', cls: 'side-a' },
        { label: 'B', cls: 'side-b' },
      ],
      r.invariants.map((i) => ({ name: i.name, cells: [{ verdict: i.a, violations: i.violationsA }, { verdict: i.b, violations: i.violationsB }] })),
    ),
    chartsSection(r.charts),
  ]);
}

/** a verdict of the Replay header (`replay/verdicts.ts`): its tone and text */
export interface ReportVerdict {
  readonly tone: 'muted' | 'ok' | 'expected' | 'bad';
  readonly label: string;
}

/** one invariant at the cursor and over the whole run */
export interface ReplayInvariantRow {
  readonly name: string;
  readonly atCursor: InvariantVerdict | null;
  readonly atCursorViolations: number;
  readonly wholeRun: InvariantVerdict | null;
  readonly wholeRunViolations: number;
}

export interface ReplayReportInput extends ReportRun {
  readonly client: ClientConfig | null;
  /** when `client` is the settings in effect at the cursor (a run that schedules setting changes): that time, ms */
  readonly clientAtMs?: number;
  /** the caption's verdict line for the whole run */
  readonly runVerdictText: string;
  readonly cursorMs: number;
  readonly atCursor: ReportVerdict;
  readonly wholeRun: ReportVerdict;
  readonly invariants: readonly ReplayInvariantRow[];
  /** the headline figures at the cursor, as label / value */
  readonly figures: readonly (readonly [string, string])[];
  /** the status line at the cursor, as the page shows it */
  readonly story: { readonly label: string; readonly text: string };
  /** the fault cards at the cursor, newest first */
  readonly cards: readonly { readonly title: string; readonly status: string; readonly facts: readonly string[]; readonly tookOverNote?: string }[];
  readonly charts: readonly ReportChart[];
}

const TONE_BORDER: Readonly<Record<ReportVerdict['tone'], string>> = { muted: '#94a3b8', ok: '#4ade80', expected: '#e7a33e', bad: '#ee6677' };

/** what the run shows at the cursor: the status line and the fault cards, in the page's words */
function storySection(r: ReplayReportInput, at: string): string {
  const cards = r.cards
    .map((c) => `<div class="card"><h3>${esc(c.title)} <small>${esc(c.status)}</small></h3>${c.tookOverNote !== undefined ? `<p><small>${esc(c.tookOverNote)}</small></p>` : ''}<ul>${c.facts.map((f) => `<li>${esc(f)}</li>`).join('')}</ul></div>`)
    .join('');
  return `<section id="story"><h2>What the run shows at the cursor (${esc(at)})</h2><p class="story"><b>${esc(r.story.label)}</b> ${esc(r.story.text)}</p>${cards}</section>`;
}

/** the one-run report (Replay) as one HTML document */
export function replayReportHtml(r: ReplayReportInput): string {
  const at = `${(r.cursorMs / 1000).toFixed(2)} s`;
  const figures = r.figures.map(([k, v]) => `<tr><th>${esc(k)}</th><td class="num">${esc(v)}</td></tr>`).join('');
  return reportDocument(r.title, `Zaris Churn Lab review report · one recorded run · cursor at ${esc(at)}`, [
    identitySection(r, clientRows('', r.clientAtMs === undefined ? 'configuration' : `configuration at ${(r.clientAtMs / 1000).toFixed(2)} s`, r.client, r.runVerdictText, 'invariants (whole run)')),
    verdictSection([
      { label: `at the cursor (${at}):`, text: r.atCursor.label, border: TONE_BORDER[r.atCursor.tone], data: { verdict: 'cursor', tone: r.atCursor.tone } },
      { label: 'whole run:', text: r.wholeRun.label, border: TONE_BORDER[r.wholeRun.tone], data: { verdict: 'run', tone: r.wholeRun.tone } },
    ]),
    storySection(r, at),
    ...(figures === '' ? [] : [`<section id="figures"><h2>Figures at the cursor (${esc(at)})</h2><table><tbody>${figures}</tbody></table></section>`]),
    invariantsSection(
      [{ label: `at the cursor (${at})` }, { label: 'whole run' }],
      r.invariants.map((i) => ({ name: i.name, cells: [{ verdict: i.atCursor, violations: i.atCursorViolations }, { verdict: i.wholeRun, violations: i.wholeRunViolations }] })),
    ),
    chartsSection(r.charts),
  ]);
}
