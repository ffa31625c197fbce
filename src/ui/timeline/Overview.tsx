/** The overview strip: the whole run's activity with a brush over the timeline's viewport. */
import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { brushGrip, drawOverview, type BrushGrip } from './drawOverview';
import { faultBands } from './faultBands';
import { CanvasPainter } from './painter';
import { DEFAULT_LAYOUT } from './scene';
import type { TimelineFeed } from './timelineFeed';
import { useFeedVersion } from './useFeedVersion';
import { clampViewport, fromBrush, fullViewport, timeToX, xToTime, type Bounds, type Viewport } from './viewport';

export interface OverviewProps {
  readonly feed: TimelineFeed;
  readonly viewport: Viewport;
  readonly bounds: Bounds;
  readonly onViewport: (v: Viewport) => void;
  readonly cursorMs: number | null;
  readonly height?: number;
}

export function Overview({ feed, viewport, bounds, onViewport, cursorMs, height = 46 }: OverviewProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  const wrap = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  const version = useFeedVersion(feed);
  const drag = useRef<{ grip: BrushGrip; t: number; viewport: Viewport } | null>(null);
  const x0 = DEFAULT_LAYOUT.labelW;
  const w = Math.max(1, width - x0 - DEFAULT_LAYOUT.scrollbarW);
  const full = fullViewport(bounds);

  useEffect(() => {
    const el = wrap.current;
    if (el === null) return;
    const ro = new ResizeObserver((e) => setWidth(Math.max(320, Math.floor(e[0]?.contentRect.width ?? 800))));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => {
    const c = ref.current;
    const ctx = c?.getContext('2d');
    if (!c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.round(width * dpr);
    c.height = Math.round(height * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawOverview(new CanvasPainter(ctx), { width, height, x0, w, bounds, viewport, cursorMs, bands: faultBands(feed.query.faults()) }, feed.activity);
  }, [feed, version, width, height, x0, w, bounds, viewport, cursorMs]);

  const timeAt = (e: PointerEvent<HTMLCanvasElement>): number => xToTime(full, e.clientX - e.currentTarget.getBoundingClientRect().left, x0, w);

  const onDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const x = e.clientX - e.currentTarget.getBoundingClientRect().left;
    if (x < x0) return;
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { grip: brushGrip(x, { x0, w, bounds, viewport }), t: timeAt(e), viewport };
  };
  const onMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    if (d === null) return;
    const t = timeAt(e);
    const v = d.viewport;
    if (d.grip === 'move') onViewport(clampViewport({ t0: v.t0 + t - d.t, t1: v.t1 + t - d.t }, bounds));
    else if (d.grip === 'left') onViewport(fromBrush(t, v.t1, bounds));
    else if (d.grip === 'right') onViewport(fromBrush(v.t0, t, bounds));
    else if (Math.abs(timeToX(full, t, x0, w) - timeToX(full, d.t, x0, w)) > 3) onViewport(fromBrush(d.t, t, bounds));
  };
  const onUp = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    drag.current = null;
    if (d === null || d.grip !== 'new') return;
    const t = timeAt(e);
    // a plain click centres the current span there
    if (Math.abs(timeToX(full, t, x0, w) - timeToX(full, d.t, x0, w)) <= 3) {
      const half = (viewport.t1 - viewport.t0) / 2;
      onViewport(clampViewport({ t0: t - half, t1: t + half }, bounds));
    }
  };

  return (
    <div ref={wrap} className="tl-overview">
      <canvas
        ref={ref}
        style={{ width, height, display: 'block' }}
        role="slider"
        aria-label="Timeline overview: drag to choose the time range"
        aria-valuemin={Math.round(bounds.min)}
        aria-valuemax={Math.round(bounds.max)}
        aria-valuenow={Math.round(viewport.t0)}
        aria-valuetext={`${(viewport.t0 / 1000).toFixed(2)} s to ${(viewport.t1 / 1000).toFixed(2)} s`}
        onPointerDown={onDown}
        onPointerMove={onMove}
        onPointerUp={onUp}
        onDoubleClick={() => onViewport(full)}
        data-testid="timeline-overview"
      />
    </div>
  );
}
