/**
 * Draws a timeline scene with a Painter (canvas on screen and for PNG, SVG
 * for vector export): refresh lane, fault bands, lanes of attempt bars
 * coloured by outcome, backoff gaps with their delay, refresh waits linked to
 * the refresh they started or rode, the time cursor.
 */
import type { Lane, LaneWait } from '../../core/replay/opStory';
import { CHART_THEME, FAULT_STYLE, OUTCOME_STYLE, PHASE_STYLE, REFRESH_STYLE } from '../theme/statusColors';
import { fitText, type Painter } from './painter';
import { emptyLanesMessage, plotX, rowsTop, xOf, type Scene } from './scene';
import { formatDuration, formatTick } from './viewport';
import { pauseLabel } from '../store/snapshot';

/** timeline chrome colours (the app's dark theme) */
export const TIMELINE_THEME = {
  bg: '#0e1628',
  labelBg: '#111a2e',
  stripe: '#131d33',
  grid: '#23304d',
  text: '#e2e8f0',
  muted: '#94a3b8',
  faint: '#64748b',
  cursor: '#f8fafc',
  select: '#38bdf8',
  inFlight: '#cbd5e1',
  halo: '#0b1120',
} as const;

const T = TIMELINE_THEME;
/** at most this many wait → refresh links are drawn for unselected ops */
const MAX_LINKS = 400;

/** where the cursor's time label sits in the axis row (x range), or null when the cursor is off the plot */
function cursorLabelBox(s: Scene): { readonly label: string; readonly right: boolean; readonly xa: number; readonly xb: number } | null {
  if (s.cursorMs === null) return null;
  const { x0, w } = plotX(s.layout);
  const x = xOf(s, s.cursorMs);
  if (x < x0 || x > x0 + w) return null;
  const label = `${(s.cursorMs / 1000).toFixed(s.viewport.t1 - s.viewport.t0 < 200 ? 4 : 2)} s`;
  const right = x + 70 < x0 + w;
  const wText = label.length * 7 + 6;
  return right ? { label, right, xa: x + 3, xb: x + 3 + wText } : { label, right, xa: x - 3 - wText, xb: x - 3 };
}

function drawAxis(p: Painter, s: Scene): void {
  const l = s.layout;
  const { x0, w } = plotX(l);
  p.rect(0, 0, l.width, l.axisH, T.labelBg);
  // a tick label the cursor's label would half cover ("11.29 s ?2 s") is left out
  const cursor = cursorLabelBox(s);
  for (const t of s.ticks.ticks) {
    const x = xOf(s, t);
    if (x < x0 - 0.5 || x > x0 + w + 0.5) continue;
    p.line(x, l.axisH - 5, x, l.height, T.grid, 1);
    const label = formatTick(t, s.ticks.step);
    const xb = x + 3 + label.length * 6.5;
    const covered = cursor !== null && x + 3 < cursor.xb + 4 && xb > cursor.xa - 4;
    if (xb <= x0 + w && !covered) p.text(x + 3, l.axisH - 12, label, { color: T.muted, size: 11, baseline: 'middle' });
  }
  p.text(10, l.axisH / 2, s.mode === 'vu' ? 'lane per virtual user' : 'lane per operation', { color: T.faint, size: 11 });
  if (s.sampling > 1) p.text(l.width - l.scrollbarW - 6, l.axisH / 2, `1 op in ${s.sampling} shown (sampled)`, { color: T.faint, size: 11, align: 'right' });
  p.line(0, l.axisH - 0.5, l.width, l.axisH - 0.5, T.grid, 1);
}

/** the workload's pauses: a neutral shade across the lanes, "paused" in the fault lane (nothing was sent: not an outage) */
function drawPauses(p: Painter, s: Scene): void {
  const l = s.layout;
  const { x0, w } = plotX(l);
  p.clip(x0, l.axisH, w, l.height - l.axisH, () => {
    for (const ps of s.pauses) {
      const xa = xOf(s, ps.from);
      const xb = Math.max(xa + 2, xOf(s, ps.to ?? s.viewport.t1));
      p.rect(xa, l.axisH, xb - xa, l.height - l.axisH, CHART_THEME.paused, 0.12);
      // at the pause's right end: its left end is often a fault's, whose label runs rightwards from there
      const label = pauseLabel(ps);
      if (xb - xa >= label.length * 7 + 8) p.text(xb - 4, l.axisH + l.faultH / 2, label, { color: CHART_THEME.paused, size: 11, halo: T.halo, align: 'right' });
    }
  });
}

function drawBands(p: Painter, s: Scene): void {
  const l = s.layout;
  const { x0, w } = plotX(l);
  p.clip(x0, l.axisH, w, l.height - l.axisH, () => {
    for (const b of s.bands) {
      const style = FAULT_STYLE[b.action];
      const xa = xOf(s, b.t0);
      const xb = Math.max(xa + 2, xOf(s, b.t1));
      p.rect(xa, l.axisH, xb - xa, l.height - l.axisH, style.color, 0.1);
      p.line(xa, l.axisH, xa, l.height, style.color, 1.5, [], 0.9);
      const label = `${style.label}${b.action === 'scaleOut' ? '' : ` n${b.node}`}${b.settledBy ? ` → ${b.settledBy} (${formatDuration(b.t1 - b.t0)})` : ''}`;
      p.text(xa + 4, l.axisH + l.faultH / 2, fitText(label, Math.max(60, xb - xa + 140), 11), { color: style.color, size: 11, weight: 600, halo: T.halo });
    }
  });
}

function drawRefreshLane(p: Painter, s: Scene, spanY: Map<number, number>): void {
  const l = s.layout;
  const { x0, w } = plotX(l);
  const y = l.axisH + l.faultH;
  p.rect(0, y, l.labelW, l.refreshH, T.labelBg);
  p.text(10, y + l.refreshH / 2, 'map refreshes', { color: T.text, size: 12, weight: 600 });
  p.text(l.labelW - 8, y + l.refreshH / 2, `${s.spans.length} in view`, { color: T.faint, size: 11, align: 'right' });
  p.clip(x0, y, w, l.refreshH, () => {
    // every epoch change gets its diamond; a label only where it clears the next one (a churn's
    // burst of epochs would pile "e3e4e5…" into one smear): a burst is named by the epoch it reached
    for (const e of s.epochs) {
      const x = xOf(s, e.t);
      p.polygon([[x, y + 2], [x + 4, y + 6], [x, y + 10], [x - 4, y + 6]], T.muted);
    }
    // labels after every diamond (a later diamond must not cross an earlier label), the last of a burst kept
    let labelStart = Infinity;
    for (let i = s.epochs.length - 1; i >= 0; i--) {
      const e = s.epochs[i] as Scene['epochs'][number];
      const x = xOf(s, e.t);
      const text = `e${e.epoch}`;
      if (x + 6 + text.length * 6 + 4 > labelStart) continue;
      p.text(x + 6, y + 6, text, { color: T.faint, size: 10, halo: T.halo });
      labelStart = x + 6;
    }
    for (const sp of s.spans) {
      const xa = xOf(s, sp.t0);
      const xb = Math.max(xa + 2, xOf(s, sp.t1));
      const color = sp.open ? T.inFlight : sp.ok === false ? REFRESH_STYLE.failed.color : REFRESH_STYLE.executed.color;
      p.rect(xa, y + 12, xb - xa, l.refreshH - 16, color, 0.95);
      spanY.set(sp.refresh, xb);
      // the refresh's number (the op stories use the same) and its callers
      const label = xb - xa > 58 ? `#${sp.no} ×${sp.callers}` : xb - xa > 22 ? `#${sp.no}` : '';
      if (label !== '') p.text((xa + xb) / 2, y + 12 + (l.refreshH - 16) / 2, label, { color: T.halo, size: 10, weight: 600, align: 'center' });
    }
  });
  p.line(0, y + l.refreshH - 0.5, l.width, y + l.refreshH - 0.5, T.grid, 1);
}

function laneLabel(s: Scene, lane: Lane): { left: string; right: string; color: string } {
  if (s.mode === 'vu' && lane.vu !== null) return { left: lane.label, right: `${lane.ops.length} op${lane.ops.length === 1 ? '' : 's'}`, color: T.faint };
  const op = lane.ops[0];
  const attempts = lane.bars.length;
  const color = op?.outcome ? OUTCOME_STYLE[op.outcome].color : T.inFlight;
  return { left: op ? `${op.op} ${op.kind} ${op.key}` : lane.label, right: attempts > 0 ? `×${attempts}` : '', color };
}

function drawLane(p: Painter, s: Scene, lane: Lane, y: number, links: { w: LaneWait; x: number; y: number; strong: boolean }[]): void {
  const l = s.layout;
  const rowH = l.rowH;
  const mid = y + rowH / 2;
  const selected = lane.ops.some((o) => o.op === s.selectedOp);
  const hovered = lane.ops.some((o) => o.op === s.hoverOp);
  for (const o of lane.ops) {
    const xa = xOf(s, o.t0);
    const xb = Math.max(xa + 1, xOf(s, o.t1));
    const mine = o.op === s.selectedOp;
    p.rect(xa, y + 2, xb - xa, rowH - 4, mine ? T.select : '#ffffff', mine ? 0.16 : 0.045);
    if (s.mode === 'vu') p.line(xa, y + 3, xa, y + rowH - 3, T.faint, 1, [], 0.8);
  }
  for (const g of lane.gaps) {
    const xa = xOf(s, g.t0);
    const xb = xOf(s, g.t1);
    p.line(xa, mid, xb, mid, OUTCOME_STYLE[g.status].color, 1, [2, 3], 0.85);
    const label = formatDuration(g.delayMs);
    if (xb - xa > label.length * 6 + 10) p.text((xa + xb) / 2, mid, label, { color: T.muted, size: 9.5, align: 'center', halo: T.bg });
  }
  for (const wt of lane.waits) {
    const xa = xOf(s, wt.t0);
    const xb = Math.max(xa + 1.5, xOf(s, wt.t1));
    const color = wt.abandoned ? OUTCOME_STYLE.NodeUnavailable.color : PHASE_STYLE.refreshWait.color;
    p.rect(xa, y + 5, xb - xa, rowH - 10, color, 0.3);
    if (xb - xa > 3) p.strokeRect(xa, y + 5, xb - xa, rowH - 10, color, 1);
    else p.rect(xa, y + 4, 1.5, rowH - 8, color);
    if (wt.refresh !== null && wt.how !== 'debounced') links.push({ w: wt, x: xb, y: y + 5, strong: wt.op === s.selectedOp || wt.op === s.hoverOp });
  }
  for (const b of lane.bars) {
    const xa = xOf(s, b.t0);
    const xb = Math.max(xa + 2, xOf(s, b.t1));
    const color = b.outcome ? OUTCOME_STYLE[b.outcome].color : T.inFlight;
    p.rect(xa, y + 3, xb - xa, rowH - 6, color, b.outcome ? 1 : 0.55);
    if (b.op === s.selectedOp) p.strokeRect(xa - 1, y + 2, xb - xa + 2, rowH - 4, T.cursor, 1.5);
    if (xb - xa > 20) p.text(xa + 3, mid, `#${b.attempt}`, { color: T.halo, size: 9.5, weight: 700 });
  }
  if (selected || hovered) p.strokeRect(plotX(l).x0, y, plotX(l).w, rowH, T.select, 1, selected ? [] : [3, 3]);
}

function drawLabels(p: Painter, s: Scene): void {
  const l = s.layout;
  for (const r of s.rows) {
    const { left, right, color } = laneLabel(s, r.lane);
    const mine = r.lane.ops.some((o) => o.op === s.selectedOp);
    p.rect(0, r.y, l.labelW, l.rowH, mine ? '#16324a' : T.labelBg);
    const rightW = right.length * 7 + 10;
    p.text(10, r.y + l.rowH / 2, fitText(left, l.labelW - 16 - rightW, 11, true), { color: T.text, size: 11, mono: true });
    if (right) p.text(l.labelW - 8, r.y + l.rowH / 2, right, { color, size: 11, weight: 600, align: 'right' });
  }
  p.line(l.labelW - 0.5, 0, l.labelW - 0.5, l.height, T.grid, 1);
}

function drawCursor(p: Painter, s: Scene): void {
  const box = cursorLabelBox(s);
  if (box === null || s.cursorMs === null) return;
  const l = s.layout;
  const x = xOf(s, s.cursorMs);
  p.line(x, 0, x, l.height, T.cursor, 1.5, [], 0.95);
  p.polygon([[x - 5, 0], [x + 5, 0], [x, 6]], T.cursor);
  // in the axis row, on its own background (the tick labels it would cover are left out): the fault lane below is the faults' labels'
  const y = l.axisH - 12;
  p.rect(box.xa, y - 8, box.xb - box.xa, 16, T.bg);
  p.text(box.right ? box.xa + 3 : box.xb - 3, y, box.label, { color: T.cursor, size: 11, weight: 700, align: box.right ? 'left' : 'right', baseline: 'middle' });
}

function drawScrollbar(p: Painter, s: Scene): void {
  const l = s.layout;
  if (s.totalLanes <= s.visibleRows || s.visibleRows === 0) return;
  const top = rowsTop(l);
  const h = l.height - top;
  const thumb = Math.max(16, (h * s.visibleRows) / s.totalLanes);
  const y = top + ((h - thumb) * s.laneOffset) / Math.max(1, s.totalLanes - s.visibleRows);
  p.rect(l.width - l.scrollbarW, top, l.scrollbarW, h, T.labelBg);
  p.rect(l.width - l.scrollbarW + 2, y, l.scrollbarW - 4, thumb, T.faint, 0.8);
}

/** draws the whole scene */
export function drawTimeline(p: Painter, s: Scene): void {
  const l = s.layout;
  const { x0, w } = plotX(l);
  const top = rowsTop(l);
  p.rect(0, 0, l.width, l.height, T.bg);
  s.rows.forEach((r, i) => {
    if ((i + s.laneOffset) % 2 === 1) p.rect(x0, r.y, w, l.rowH, T.stripe);
  });
  drawAxis(p, s);
  drawPauses(p, s);
  drawBands(p, s);
  const spanX = new Map<number, number>();
  drawRefreshLane(p, s, spanX);
  const links: { w: LaneWait; x: number; y: number; strong: boolean }[] = [];
  p.clip(x0, top, w, l.height - top, () => {
    for (const r of s.rows) drawLane(p, s, r.lane, r.y, links);
  });
  p.clip(x0, l.axisH + l.faultH, w, l.height - l.axisH - l.faultH, () => {
    const linkY = l.axisH + l.faultH + l.refreshH - 4;
    const weak = links.filter((k) => !k.strong);
    if (weak.length <= MAX_LINKS) {
      for (const k of weak) {
        const sx = spanX.get(k.w.refresh as number);
        if (sx !== undefined) p.line(k.x, k.y, sx, linkY, PHASE_STYLE.refreshWait.color, 1, k.w.coalesced ? [3, 3] : [], 0.35);
      }
    }
    for (const k of links.filter((x) => x.strong)) {
      const sx = spanX.get(k.w.refresh as number);
      if (sx !== undefined) p.line(k.x, k.y, sx, linkY, PHASE_STYLE.refreshWait.color, 1.5, k.w.coalesced ? [4, 3] : [], 1);
    }
  });
  drawLabels(p, s);
  if (s.rows.length === 0) {
    p.text(x0 + w / 2, top + Math.min(80, (l.height - top) / 2), emptyLanesMessage(s), { color: T.faint, size: 13, align: 'center' });
  }
  drawCursor(p, s);
  drawScrollbar(p, s);
}
