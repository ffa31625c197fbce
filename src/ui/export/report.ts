/**
 * The one-click review report: a single self-contained HTML file — the
 * run's identity (scenario, seed, cluster, configuration, toggles), the
 * verdict sentence, the delta table, the invariant verdicts and the key
 * charts as inline SVG. No script, no external reference (styles inline in
 * one <style>, pictures inline), so it reads the same offline, attached to
 * a design document or opened from a mail years later. Pure string
 * building; the view gathers the parts.
 */
import { BUG_TOGGLES, type ClientConfig } from '../../core/client/config';
import type { InvariantComparison, InvariantVerdict } from '../../core/replay/compare';
import { selectConfigSummary } from '../store/selectors';
import type { DeltaSection } from '../compare/deltaRows';
import { cleanSvgMarkup, escapeXml as esc } from './svgDoc';

export interface ReportSide {
  readonly id: 'a' | 'b';
  readonly label: string;
  readonly client: ClientConfig;
  /** the caption's verdict line for this run */
  readonly verdict: string;
}

export interface ReportChart {
  readonly title: string;
  /** a standalone SVG document */
  readonly svg: string;
}

export interface ReviewReportInput {
  readonly title: string;
  readonly scenario: string;
  readonly seed: number;
  readonly cluster: string;
  readonly source: string;
  readonly workload: string;
  readonly sides: readonly ReportSide[];
  readonly verdictSentence: string;
  /** which side served users better (colours the sentence) */
  readonly better: 'a' | 'b' | null;
  readonly sections: readonly DeltaSection[];
  readonly invariants: readonly InvariantComparison[];
  readonly charts: readonly ReportChart[];
  /** the shareable link, as text (not a live reference) */
  readonly link: string | null;
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
.ok { background: #14532d; color: #bbf7d0; } .expected { background: #713f12; color: #fde68a; } .bad { background: #7f1d1d; color: #fecaca; }
figure { margin: 16px 0 24px; }
figure svg { max-width: 100%; height: auto; display: block; }
figcaption { color: #94a3b8; margin-bottom: 6px; }
code { font-family: 'JetBrains Mono', ui-monospace, Menlo, monospace; font-size: 12px; word-break: break-all; }
`;

const togglesOf = (c: ClientConfig): string => {
  const on = BUG_TOGGLES.filter((t) => c.bugs[t]);
  return on.length === 0 ? 'none (the fixed client)' : on.join(', ');
};

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

const cell = (text: string, win: 'a' | 'b' | null, side: 'a' | 'b'): string => `<td class="num${win === side ? ' win' : win !== null ? ' lose' : ''}">${esc(text)}</td>`;

/** the report as one HTML document */
export function reviewReportHtml(r: ReviewReportInput): string {
  const sideA = r.sides.find((s) => s.id === 'a');
  const sideB = r.sides.find((s) => s.id === 'b');
  const identity = [
    ['scenario', `${r.scenario} · ${r.source}`],
    ['seed', String(r.seed)],
    ['cluster', r.cluster],
    ['workload', r.workload],
    ...r.sides.flatMap((s) => [
      [`${s.id.toUpperCase()} · ${s.label}`, `client: ${selectConfigSummary(s.client)}`],
      [`${s.id.toUpperCase()} · bug toggles`, togglesOf(s.client)],
      [`${s.id.toUpperCase()} · invariants`, s.verdict.replace(/^verdict: /, '')],
    ]),
  ]
    .map(([k, v]) => `<dt>${esc(k ?? '')}</dt><dd>${esc(v ?? '')}</dd>`)
    .join('');
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
  const invariants = r.invariants.map((i) => `<tr><th>${esc(i.name)}</th><td>${invariantCell(i.a, i.violationsA)}</td><td>${invariantCell(i.b, i.violationsB)}</td></tr>`).join('');
  // an SVG document becomes inline SVG in HTML: drop what only a file needs
  const charts = r.charts.map((c) => `<figure><figcaption>${esc(c.title)}</figcaption>${cleanSvgMarkup(c.svg)}</figure>`).join('');
  const border = r.better === 'a' ? '#38bdf8' : r.better === 'b' ? '#f472b6' : '#94a3b8';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(r.title)}</title><style>${STYLE}</style></head>
<body>
<header><h1>${esc(r.title)}</h1><div class="muted">Zaris Churn Lab review report · same scenario, same seed, two clients · A <span class="side-a">${esc(sideA?.label ?? '')}</span> vs B <span class="side-b">${esc(sideB?.label ?? '')}</span></div></header>
<section id="identity"><h2>The run</h2><dl class="identity">${identity}</dl>${r.link ? `<p class="muted">Open again: <code>${esc(r.link)}</code></p>` : ''}</section>
<section id="verdict"><h2>Verdict</h2><p class="verdict" style="border-left-color:${border}" data-better="${r.better ?? ''}">${esc(r.verdictSentence)}</p></section>
<section id="delta"><h2>What changed (B − A; the better side in green)</h2><table><thead><tr><th>metric</th><th class="side-a">A · ${esc(sideA?.label ?? '')}</th><th class="side-b">B · ${esc(sideB?.label ?? '')}</th><th>B − A</th></tr></thead>${rows}</table></section>
<section id="invariants"><h2>Invariants</h2><table><thead><tr><th>invariant</th><th class="side-a">A</th><th class="side-b">B</th></tr></thead><tbody>${invariants}</tbody></table></section>
<section id="charts"><h2>Charts</h2>${charts}</section>
</body></html>
`;
}
