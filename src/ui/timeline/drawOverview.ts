/**
 * The overview strip under the timeline: attempts per time slice by how they
 * were answered (the whole run), fault bands, the cursor, and the brush that
 * shows (and sets) the timeline's viewport.
 */
import { FAULT_STYLE, OUTCOME_STYLE } from '../theme/statusColors';
import type { ActivityHistogram } from './activity';
import { TIMELINE_THEME as T } from './drawTimeline';
import type { FaultBand } from './faultBands';
import type { Painter } from './painter';
import { timeToX, type Bounds, type Viewport } from './viewport';

/** colours of the activity classes (answered, retryable status, transport error) */
export const ACTIVITY_COLORS = [OUTCOME_STYLE.Ok.color, OUTCOME_STYLE.Moved.color, OUTCOME_STYLE.NodeUnavailable.color] as const;

export interface OverviewScene {
  readonly width: number;
  readonly height: number;
  /** plot x range (aligned with the timeline's plot) */
  readonly x0: number;
  readonly w: number;
  readonly bounds: Bounds;
  readonly viewport: Viewport;
  readonly cursorMs: number | null;
  readonly bands: readonly FaultBand[];
}

export function drawOverview(p: Painter, s: OverviewScene, activity: ActivityHistogram): void {
  const full: Viewport = { t0: s.bounds.min, t1: Math.max(s.bounds.min + 1, s.bounds.max) };
  const x = (t: number): number => timeToX(full, t, s.x0, s.w);
  p.rect(0, 0, s.width, s.height, T.bg);
  p.rect(0, 0, s.x0, s.height, T.labelBg);
  p.text(10, s.height / 2 - 7, 'overview', { color: T.text, size: 12, weight: 600 });
  p.text(10, s.height / 2 + 8, 'attempts · drag to zoom', { color: T.faint, size: 10.5 });
  for (const b of s.bands) p.rect(x(b.t0), 0, Math.max(2, x(b.t1) - x(b.t0)), s.height, FAULT_STYLE[b.action].color, 0.14);
  const cols = Math.max(1, Math.floor(s.w / 2));
  const { values, max } = activity.columns(full.t0, full.t1, cols);
  const colW = s.w / cols;
  const chartH = s.height - 6;
  if (max > 0) {
    for (let i = 0; i < cols; i++) {
      let y = s.height - 2;
      for (let k = 0; k < 3; k++) {
        const v = values[i * 3 + k] as number;
        if (v <= 0) continue;
        const h = (v / max) * chartH;
        p.rect(s.x0 + i * colW, y - h, Math.max(1, colW - 0.3), h, ACTIVITY_COLORS[k] as string, 0.85);
        y -= h;
      }
    }
  }
  // the brush: everything outside the viewport is shaded
  const a = x(s.viewport.t0);
  const b = Math.max(a + 2, x(s.viewport.t1));
  p.rect(s.x0, 0, a - s.x0, s.height, T.halo, 0.6);
  p.rect(b, 0, s.x0 + s.w - b, s.height, T.halo, 0.6);
  p.strokeRect(a, 0.5, b - a, s.height - 1, T.select, 1.5);
  p.rect(a - 2, s.height / 2 - 8, 4, 16, T.select);
  p.rect(b - 2, s.height / 2 - 8, 4, 16, T.select);
  if (s.cursorMs !== null) p.line(x(s.cursorMs), 0, x(s.cursorMs), s.height, T.cursor, 1.5);
  p.line(s.x0 - 0.5, 0, s.x0 - 0.5, s.height, T.grid, 1);
}

export type BrushGrip = 'left' | 'right' | 'move' | 'new';

/** which part of the brush a press at x hits */
export function brushGrip(x: number, s: Pick<OverviewScene, 'x0' | 'w' | 'bounds' | 'viewport'>): BrushGrip {
  const full: Viewport = { t0: s.bounds.min, t1: Math.max(s.bounds.min + 1, s.bounds.max) };
  const a = timeToX(full, s.viewport.t0, s.x0, s.w);
  const b = timeToX(full, s.viewport.t1, s.x0, s.w);
  // a brush over (nearly) the whole run is no brush: a drag draws a new one
  if (b - a >= s.w * 0.98) return 'new';
  if (Math.abs(x - a) <= 6) return 'left';
  if (Math.abs(x - b) <= 6) return 'right';
  if (x > a && x < b) return 'move';
  return 'new';
}
