/**
 * The waterfall on a canvas: only what is visible is drawn (one window query
 * per frame, never a DOM node per bar). Ctrl/⌘ + wheel or pinch zooms at the
 * pointer, shift + wheel or a horizontal swipe pans, the wheel scrolls lanes,
 * drag pans both ways, W/S/A/D or +/−/arrows/0 from the keyboard; a click
 * picks an operation, a click on the time axis moves the cursor.
 */
import { useCallback, useEffect, useRef, useState, type KeyboardEvent, type MouseEvent, type PointerEvent } from 'react';
import type { LaneMode } from '../../core/replay/opStory';
import { drawTimeline } from './drawTimeline';
import { CanvasPainter } from './painter';
import { buildScene, hitTest, plotX, type Hit, type LaneFilter, type Scene } from './scene';
import type { TimelineFeed } from './timelineFeed';
import { useFeedVersion } from './useFeedVersion';
import { describeHit } from './tooltip';
import { applyKey, keyAction, panByPixels, scrollLanes, wheelZoomFactor, xToTime, zoomAt, type Bounds, type Viewport } from './viewport';
import { usePauseSpans } from '../store/StoreContext';

export interface TimelineCanvasProps {
  readonly feed: TimelineFeed;
  readonly viewport: Viewport;
  readonly bounds: Bounds;
  readonly onViewport: (v: Viewport) => void;
  readonly mode: LaneMode;
  readonly filter: LaneFilter;
  readonly cursorMs: number | null;
  readonly selectedOp: number | null;
  /** first lane shown (vertical scroll) */
  readonly laneOffset: number;
  readonly onLaneOffset: (offset: number) => void;
  readonly onSelectOp: (op: number | null) => void;
  /** click on the time axis: move the replay cursor there */
  readonly onSeek?: (t: number) => void;
  /** css px */
  readonly height: number;
  readonly label: string;
  readonly testId?: string;
}

interface Drag {
  readonly x: number;
  readonly y: number;
  readonly viewport: Viewport;
  readonly laneOffset: number;
  moved: boolean;
}

export function TimelineCanvas(props: TimelineCanvasProps) {
  const { feed, viewport, bounds, onViewport, mode, filter, cursorMs, selectedOp, laneOffset, onLaneOffset: setLaneOffset, onSelectOp, onSeek, height, label, testId } = props;
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const wrapRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(800);
  // the wrapper can be resized vertically by the user (CSS resize); the canvas follows
  const [ownHeight, setOwnHeight] = useState<number | null>(null);
  const [hover, setHover] = useState<{ hit: Hit; x: number; y: number } | null>(null);
  const version = useFeedVersion(feed);
  const [dragging, setDragging] = useState(false);
  const sceneRef = useRef<Scene | null>(null);
  const drag = useRef<Drag | null>(null);
  const hoverOp = hover !== null && 'op' in hover.hit ? hover.hit.op : null;
  // the workload's pauses, where a store provides them (Replay: up to its cursor)
  const pauses = usePauseSpans();

  useEffect(() => {
    const el = wrapRef.current;
    if (el === null) return;
    const ro = new ResizeObserver((entries) => {
      const r = entries[0]?.contentRect;
      if (r === undefined) return;
      setWidth(Math.max(320, Math.floor(r.width)));
      setOwnHeight(Math.max(160, Math.floor(r.height)));
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, []);
  const h = ownHeight ?? height;

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(h * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const scene = buildScene(feed.query, { viewport, mode, filter, laneOffset, width, height: h, cursorMs, selectedOp, hoverOp, asOfMs: feed.cursorMs, pauses }, feed.retriedAt);
    sceneRef.current = scene;
    drawTimeline(new CanvasPainter(ctx), scene);
    canvas.dataset.lanes = String(scene.totalLanes);
    canvas.dataset.rows = String(scene.rows.length);
    canvas.dataset.ops = String(feed.recorder.sampling.keptOps);
    canvas.dataset.segments = String(feed.recorder.sampling.segments);
    canvas.dataset.refreshes = String(scene.spans.length);
    canvas.dataset.t0 = viewport.t0.toFixed(1);
    canvas.dataset.t1 = viewport.t1.toFixed(1);
    canvas.dataset.cursorMs = cursorMs === null ? '' : cursorMs.toFixed(1);
    if (scene.laneOffset !== laneOffset) setLaneOffset(scene.laneOffset);
  }, [feed, version, viewport, mode, filter, laneOffset, setLaneOffset, width, h, cursorMs, selectedOp, hoverOp, pauses]);

  const scene = (): Scene | null => sceneRef.current;

  // wheel needs a non-passive listener to keep the page from scrolling while zooming
  const wheelState = useRef({ viewport, bounds, laneOffset, onViewport, setLaneOffset });
  useEffect(() => {
    wheelState.current = { viewport, bounds, laneOffset, onViewport, setLaneOffset };
  });
  useEffect(() => {
    const canvas = canvasRef.current;
    if (canvas === null) return;
    const onWheel = (e: WheelEvent) => {
      const s = sceneRef.current;
      if (s === null) return;
      const st = wheelState.current;
      const rect = canvas.getBoundingClientRect();
      const { x0, w } = plotX(s.layout);
      if (e.ctrlKey || e.metaKey) {
        e.preventDefault();
        st.onViewport(zoomAt(st.viewport, wheelZoomFactor(e.deltaY), (e.clientX - rect.left - x0) / w, st.bounds));
      } else if (e.shiftKey || Math.abs(e.deltaX) > Math.abs(e.deltaY)) {
        e.preventDefault();
        st.onViewport(panByPixels(st.viewport, -(e.shiftKey ? e.deltaY : e.deltaX), w, st.bounds));
      } else {
        const next = scrollLanes(st.laneOffset, Math.sign(e.deltaY) * Math.max(1, Math.round(Math.abs(e.deltaY) / s.layout.rowH)), s.totalLanes, s.visibleRows);
        if (next === st.laneOffset) return; // at the end: let the page scroll
        e.preventDefault();
        st.setLaneOffset(next);
      }
    };
    canvas.addEventListener('wheel', onWheel, { passive: false });
    return () => canvas.removeEventListener('wheel', onWheel);
  }, []);

  const local = (e: PointerEvent<HTMLCanvasElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const onPointerDown = (e: PointerEvent<HTMLCanvasElement>) => {
    const { x, y } = local(e);
    e.currentTarget.setPointerCapture(e.pointerId);
    drag.current = { x, y, viewport, laneOffset, moved: false };
  };

  const onPointerMove = (e: PointerEvent<HTMLCanvasElement>) => {
    const { x, y } = local(e);
    const s = scene();
    const d = drag.current;
    if (d !== null && s !== null) {
      if (!d.moved && Math.hypot(x - d.x, y - d.y) < 4) return;
      if (!d.moved) setDragging(true);
      d.moved = true;
      setHover(null);
      onViewport(panByPixels(d.viewport, x - d.x, plotX(s.layout).w, bounds));
      setLaneOffset(scrollLanes(d.laneOffset, -(y - d.y) / s.layout.rowH, s.totalLanes, s.visibleRows));
      return;
    }
    const hit = s === null ? null : hitTest(s, x, y);
    setHover(hit === null ? null : { hit, x, y });
  };

  const onPointerUp = (e: PointerEvent<HTMLCanvasElement>) => {
    const d = drag.current;
    drag.current = null;
    setDragging(false);
    if (d === null || d.moved) return;
    const s = scene();
    if (s === null) return;
    const { x, y } = local(e);
    const { x0, w } = plotX(s.layout);
    if (y < s.layout.axisH && x >= x0 && onSeek) {
      onSeek(Math.max(bounds.min, Math.min(bounds.max, xToTime(viewport, x, x0, w))));
      return;
    }
    const hit = hitTest(s, x, y);
    onSelectOp(hit !== null && 'op' in hit ? (hit.op === selectedOp ? null : hit.op) : null);
  };

  const onDoubleClick = (e: MouseEvent<HTMLCanvasElement>) => {
    const s = scene();
    if (s === null) return;
    const r = e.currentTarget.getBoundingClientRect();
    const { x0, w } = plotX(s.layout);
    onViewport(zoomAt(viewport, e.shiftKey ? 0.5 : 2, (e.clientX - r.left - x0) / w, bounds));
  };

  const onKeyDown = useCallback(
    (e: KeyboardEvent<HTMLCanvasElement>) => {
      const s = sceneRef.current;
      if (e.key === 'ArrowUp' || e.key === 'ArrowDown' || e.key === 'PageUp' || e.key === 'PageDown') {
        if (s === null) return;
        e.preventDefault();
        const page = e.key.startsWith('Page') ? s.visibleRows : 1;
        setLaneOffset(scrollLanes(laneOffset, (e.key === 'ArrowUp' || e.key === 'PageUp' ? -1 : 1) * page, s.totalLanes, s.visibleRows));
        return;
      }
      if (e.key === 'Escape') {
        onSelectOp(null);
        return;
      }
      const action = keyAction(e.key);
      if (action === null || e.ctrlKey || e.metaKey || e.altKey) return;
      e.preventDefault();
      onViewport(applyKey(viewport, action, bounds));
    },
    [laneOffset, viewport, bounds, onViewport, onSelectOp, setLaneOffset],
  );

  const card = hover === null ? null : describeHit(hover.hit);
  return (
    <div className="tl-canvas-wrap" ref={wrapRef} style={{ height }} title="Drag the bottom-right corner to make the timeline taller">
      <canvas
        ref={canvasRef}
        className="tl-canvas"
        style={{ width, height: h, cursor: dragging ? 'grabbing' : hover ? 'pointer' : 'grab' }}
        tabIndex={0}
        role="img"
        aria-label={label}
        data-testid={testId}
        onPointerDown={onPointerDown}
        onPointerMove={onPointerMove}
        onPointerUp={onPointerUp}
        onPointerLeave={() => setHover(null)}
        onDoubleClick={onDoubleClick}
        onKeyDown={onKeyDown}
      />
      {card !== null && hover !== null && card.title ? (
        <div className="tl-tip" style={{ left: Math.min(hover.x + 14, width - 280), top: Math.min(hover.y + 14, h - 80) }} role="tooltip">
          <b>{card.title}</b>
          {card.lines.map((l) => (
            <div key={l}>{l}</div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
