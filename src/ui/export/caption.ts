/**
 * The caption strip every export carries, so a picture in a design review
 * says what it shows: scenario, seed, cluster (in Replay, as at the cursor,
 * on a line of its own: "cluster at 7.50 s: 4 nodes / 64 segments"), client
 * configuration, bug toggles, invariant verdict and time range. Pure text; `drawCaption` paints it with
 * the timeline's Painter (canvas or SVG).
 */
import { BUG_TOGGLES, type ClientConfig } from '../../core/client/config';
import type { InvariantReport } from '../../core/sim/invariants';
import { changesNodes } from '../../core/cluster/faults';
import type { FaultAction } from '../../core/telemetry/events';
import { selectConfigSummary } from '../store/selectors';
import type { Painter } from '../timeline/painter';
import { formatDuration } from '../timeline/viewport';

/** who the run is */
export interface RunIdentity {
  readonly scenario: string;
  /** null: unknown (an imported events file) */
  readonly seed: number | null;
  readonly nodes: number | null;
  readonly segments: number | null;
  /** the nodes not up, by status ("1 down", "1 down, 1 joining"), when the figures are a cursor's (Replay's identityAtCursor) */
  readonly nodesNotUp?: string;
  /** `nodes` is the run's start and its faults change the nodes (a picture of the whole run: "3 nodes at the start") */
  readonly nodesAtStart?: boolean;
  /** when `nodes` is the cluster's at a cursor, not the run's start: that time, ms since run start ("at 7.50 s") */
  readonly topologyAtMs?: number;
  /** null: unknown (an imported events file) */
  readonly client: ClientConfig | null;
  /** when `client` is the settings in effect at a cursor (a run with scheduled setting changes), not the start's: that time, ms */
  readonly clientAtMs?: number;
  /** where it came from: preset, file, live recording, events file */
  readonly source: string;
}

/** the bug toggles line */
export function togglesText(client: ClientConfig | null): string {
  if (client === null) return 'bug toggles: unknown (imported events)';
  const on = BUG_TOGGLES.filter((t) => client.bugs[t]);
  return on.length === 0 ? 'bug toggles: none (the fixed client)' : `bug toggles ON: ${on.join(', ')}`;
}

/** the bug toggles line of two runs side by side ("bug toggles: A none · B ON deadlineReplacesAttempts") */
export function pairTogglesText(a: ClientConfig | null, b: ClientConfig | null): string {
  const side = (c: ClientConfig | null): string => {
    if (c === null) return 'unknown';
    const on = BUG_TOGGLES.filter((t) => c.bugs[t]);
    return on.length === 0 ? 'none' : `ON ${on.join(', ')}`;
  };
  return `bug toggles: A ${side(a)} · B ${side(b)}`;
}

/** the nodes, with those not up ("3 nodes (1 down)"); '' when unknown */
export function nodesText(id: Pick<RunIdentity, 'nodes' | 'nodesNotUp' | 'nodesAtStart'>): string {
  if (id.nodes === null) return '';
  return `${id.nodes} nodes${id.nodesNotUp ? ` (${id.nodesNotUp})` : ''}${id.nodesAtStart === true ? ' at the start' : ''}`;
}

/** the run's faults change its nodes (a whole-run picture's node count is then the start's) */
export function faultsChangeNodes(faults: readonly { readonly action: FaultAction }[]): boolean {
  return faults.some((f) => changesNodes(f.action));
}

/** a whole-run picture's identity: its node count marked as the start's when the run's faults change the nodes */
export function wholeRunIdentity(id: RunIdentity, faults: readonly { readonly action: FaultAction }[]): RunIdentity {
  return faultsChangeNodes(faults) ? { ...id, nodesAtStart: true } : id;
}

/** " at 7.50 s" when the identity's cluster is a cursor's, else '' */
export function topologyAtText(id: Pick<RunIdentity, 'topologyAtMs'>): string {
  return id.topologyAtMs === undefined ? '' : ` at ${(id.topologyAtMs / 1000).toFixed(2)} s`;
}

/** one line on the invariant checks: ok, explained by a toggle, or violated */
export function verdictText(report: InvariantReport | null): string {
  if (report === null || report.checks.length === 0) return 'verdict: no operations checked yet';
  const bad = report.checks.filter((c) => !c.ok);
  if (bad.length === 0) return `verdict: all ${report.checks.length} invariants kept`;
  const parts = bad.map((c) => `${c.name} ${c.violations}× ${c.expected ? '(expected: a bug toggle is on)' : 'VIOLATED'}`);
  return `verdict: ${report.ok ? '' : 'VIOLATED — '}${parts.join('; ')}`;
}

export function rangeText(t0: number, t1: number, cursorMs: number | null): string {
  const span = t1 - t0;
  const at = (t: number): string => (span >= 100 ? `${(t / 1000).toFixed(span >= 1000 ? 2 : 3)} s` : `${t.toFixed(2)} ms`);
  const cursor = cursorMs === null ? '' : ` · cursor ${at(cursorMs)}`;
  return `time range ${at(t0)} – ${at(t1)} (${formatDuration(span)})${cursor}`;
}

export interface CaptionInput {
  readonly identity: RunIdentity;
  /** what the picture is: "timeline", "Throughput panel", … */
  readonly what: string;
  readonly verdict: string;
  /** ms since run start */
  readonly range: { readonly t0: number; readonly t1: number } | null;
  readonly cursorMs: number | null;
  /** extra line (e.g. lane mode, sampling) */
  readonly note?: string;
  /** the bug toggles line, when it is not the identity's client's (two runs: {@link pairTogglesText}) */
  readonly toggles?: string;
}

/** the caption's lines, first one the headline */
export function captionLines(c: CaptionInput): string[] {
  const id = c.identity;
  const seed = id.seed === null ? 'seed unknown' : `seed ${id.seed}`;
  const clusterText = `${nodesText(id)} / ${id.segments ?? '?'} segments`;
  // a cursor's cluster gets a line of its own: at the headline's end, a half-width panel's picture cuts it off
  const atCursor = id.nodes !== null && id.topologyAtMs !== undefined;
  const cluster = id.nodes === null || atCursor ? '' : ` · ${clusterText}`;
  const lines = [
    `Zaris Churn Lab — ${c.what} · ${id.scenario} · ${seed}${cluster} · ${id.source}`,
    ...(atCursor ? [`cluster${topologyAtText(id)}: ${clusterText}`] : []),
    id.client === null ? 'client configuration: unknown (imported events)' : `client${id.clientAtMs === undefined ? '' : ` at ${(id.clientAtMs / 1000).toFixed(2)} s`}: ${selectConfigSummary(id.client)}`,
    c.toggles ?? togglesText(id.client),
    c.verdict,
  ];
  if (c.range !== null) lines.push(rangeText(c.range.t0, c.range.t1, c.cursorMs) + (c.note ? ` · ${c.note}` : ''));
  else if (c.note) lines.push(c.note);
  return lines;
}

/** a legend item in the caption */
export interface LegendItem {
  readonly label: string;
  readonly color: string;
  readonly shape?: 'bar' | 'hollow' | 'dash';
}

export const CAPTION_LINE_H = 17;
export const CAPTION_PAD = 10;
const LEGEND_H = 20;

/** px height of a caption with `lines` lines (and a legend row when `legend` is non-empty) */
export function captionHeight(lines: number, legend = 0): number {
  return CAPTION_PAD * 2 + lines * CAPTION_LINE_H + (legend > 0 ? LEGEND_H : 0);
}

/** paints the caption strip at y (full width w) */
export function drawCaption(p: Painter, lines: readonly string[], legend: readonly LegendItem[], y: number, w: number): void {
  const h = captionHeight(lines.length, legend.length);
  p.rect(0, y, w, h, '#0b1120');
  p.line(0, y + 0.5, w, y + 0.5, '#23304d', 1);
  lines.forEach((line, i) => {
    const ty = y + CAPTION_PAD + i * CAPTION_LINE_H + CAPTION_LINE_H / 2;
    const bad = line.includes('VIOLATED');
    const warn = !bad && line.startsWith('bug toggles ON');
    p.text(CAPTION_PAD + 2, ty, line, { color: i === 0 ? '#e2e8f0' : bad ? '#ee6677' : warn ? '#e7a33e' : '#94a3b8', size: i === 0 ? 13 : 12, weight: i === 0 ? 600 : 400 });
  });
  let x = CAPTION_PAD + 2;
  const ly = y + CAPTION_PAD + lines.length * CAPTION_LINE_H + LEGEND_H / 2;
  for (const item of legend) {
    if (item.shape === 'hollow') p.strokeRect(x, ly - 5, 14, 10, item.color, 1.5);
    else if (item.shape === 'dash') p.line(x, ly, x + 14, ly, item.color, 1.5, [2, 2]);
    else p.rect(x, ly - 5, 14, 10, item.color);
    p.text(x + 19, ly, item.label, { color: '#94a3b8', size: 11.5 });
    x += 19 + item.label.length * 6.6 + 16;
  }
}

/** a file name for an export: `zaris-<scenario>-seed<seed>-<what>[-<t0>-<t1>ms].<ext>` */
export function exportFileName(identity: Pick<RunIdentity, 'scenario' | 'seed'>, what: string, ext: string, range?: { t0: number; t1: number } | null): string {
  const slug = (s: string): string =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 60) || 'run';
  const seed = identity.seed === null ? '' : `-seed${identity.seed}`;
  const r = range ? `-${Math.round(range.t0)}-${Math.round(range.t1)}ms` : '';
  return `zaris-${slug(identity.scenario)}${seed}-${slug(what)}${r}.${ext}`;
}
