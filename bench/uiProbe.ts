/**
 * What the UI benchmark installs in the page (as source text, so no bundler
 * helper can leak into it) and reads back:
 *
 * - every requestAnimationFrame timestamp, into a preallocated ring (no
 *   allocation per frame);
 * - long tasks (PerformanceObserver 'longtask', tasks > 50 ms);
 * - MessagePort handlers timed and counted (the setter of
 *   MessagePort.prototype.onmessage wraps each handler): the live session sets
 *   `port.onmessage` for the control plane's and the client's telemetry
 *   (src/ui/bridge/liveSession.ts), and everything the main thread does for a
 *   batch — listener → store ingest → zustand set → subscribers — runs inside
 *   that handler ("telemetry" ports: their messages carry a `kind`). React's
 *   scheduler also runs its render work from a MessageChannel handler
 *   ("other" ports), so that is timed too. Handler times are wall time: on a
 *   machine short of cores they include time the thread was preempted.
 *
 * The store's own cumulative counter (`aggregator.events`, events folded into
 * the store) is read directly; the benchmark never writes to the store.
 */
import type { Page } from 'playwright-core';

export const INIT_SCRIPT = `(() => {
  const FRAMES = 1 << 20;
  const B = (window.__uiBench = {
    frames: new Float64Array(FRAMES), frameCount: 0,
    longTasks: 0, longTaskMs: 0,
    ports: [],
  });
  const loop = (t) => { B.frames[B.frameCount % FRAMES] = t; B.frameCount++; requestAnimationFrame(loop); };
  requestAnimationFrame(loop);
  try {
    new PerformanceObserver((list) => { for (const e of list.getEntries()) { B.longTasks++; B.longTaskMs += e.duration; } }).observe({ type: 'longtask', buffered: true });
  } catch (e) { B.longTaskError = String(e); }
  const desc = Object.getOwnPropertyDescriptor(MessagePort.prototype, 'onmessage');
  if (desc && desc.set && desc.get) {
    Object.defineProperty(MessagePort.prototype, 'onmessage', {
      configurable: true,
      enumerable: desc.enumerable,
      get() { const h = desc.get.call(this); return (h && h.__benchOriginal) || h; },
      set(fn) {
        if (typeof fn !== 'function') { desc.set.call(this, fn); return; }
        const st = { kind: 'unknown', messages: 0, handlerMs: 0, batches: 0, events: 0, maxBatch: 0, maxHandlerMs: 0, lastArrival: 0, maxGapMs: 0, gapsOver50: 0 };
        B.ports.push(st);
        const wrapped = function (ev) {
          const d = ev.data;
          if (st.kind === 'unknown') st.kind = d !== null && typeof d === 'object' && typeof d.kind === 'string' ? 'telemetry' : 'other';
          const n = d && d.kind === 'batch' && d.batch ? d.batch.n : -1;
          const t0 = performance.now();
          try { return fn.call(this, ev); } finally {
            const t1 = performance.now();
            const dt = t1 - t0;
            st.messages++; st.handlerMs += dt; if (dt > st.maxHandlerMs) st.maxHandlerMs = dt;
            if (n >= 0) {
              st.batches++; st.events += n; if (n > st.maxBatch) st.maxBatch = n;
              if (st.lastArrival > 0) { const gap = t0 - st.lastArrival; if (gap > st.maxGapMs) st.maxGapMs = gap; if (gap > 50) st.gapsOver50++; }
              st.lastArrival = t0;
            }
          }
        };
        wrapped.__benchOriginal = fn;
        desc.set.call(this, wrapped);
      },
    });
  }
})();`;

export interface PortCounters {
  /** telemetry (messages with a `kind`), other (React's scheduler), unknown (no message yet) */
  readonly kind: 'telemetry' | 'other' | 'unknown';
  readonly messages: number;
  readonly handlerMs: number;
  readonly batches: number;
  readonly events: number;
  readonly maxBatch: number;
  readonly maxHandlerMs: number;
  readonly maxGapMs: number;
  readonly gapsOver50: number;
}

/** one cheap reading of the page's counters */
export interface PageCounters {
  /** performance.now() */
  readonly now: number;
  /** events folded into the store so far (the store's own counter, `aggregator.events`) */
  readonly storeEvents: number;
  /** operations ended so far (the aggregator's running totals; the published snapshot's if not readable) */
  readonly opsEnded: number;
  readonly inFlight: number;
  /** the published snapshot's version (one per publish: what panels redraw from) */
  readonly publishes: number;
  readonly running: boolean;
  readonly frameCount: number;
  readonly longTasks: number;
  readonly longTaskMs: number;
  /** MessagePorts whose onmessage the page set, in order of the first set */
  readonly ports: readonly PortCounters[];
}

const READ_COUNTERS = `(() => {
  const B = window.__uiBench;
  const s = window.__zarisLab.store.getState();
  const p = s.snapshot.parkedNow;
  return {
    now: performance.now(),
    storeEvents: s.aggregator.events,
    opsEnded: (s.aggregator.totals || s.snapshot.totals).opsEnded,
    inFlight: p.attempt + p.refreshWait + p.backoff,
    publishes: s.snapshot.version,
    running: s.running,
    frameCount: B.frameCount,
    longTasks: B.longTasks,
    longTaskMs: B.longTaskMs,
    ports: B.ports.map((x) => ({ kind: x.kind, messages: x.messages, handlerMs: x.handlerMs, batches: x.batches, events: x.events, maxBatch: x.maxBatch, maxHandlerMs: x.maxHandlerMs, maxGapMs: x.maxGapMs, gapsOver50: x.gapsOver50 })),
  };
})()`;

export function readCounters(page: Page): Promise<PageCounters> {
  return page.evaluate(READ_COUNTERS) as Promise<PageCounters>;
}

/** rAF timestamps of frames [from, to) (frame numbers as counted by `frameCount`) */
export function readFrames(page: Page, from: number, to: number): Promise<number[]> {
  return page.evaluate(`(() => {
    const B = window.__uiBench, N = B.frames.length, out = [];
    for (let i = Math.max(${from}, B.frameCount - N); i < Math.min(${to}, B.frameCount); i++) out.push(B.frames[i % N]);
    return out;
  })()`) as Promise<number[]>;
}

export interface FrameStats {
  readonly frames: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** intervals over 20 ms, % */
  readonly over20Pct: number;
  /** vsync slots with no frame: Σ max(0, round(interval / vsync) − 1) */
  readonly dropped: number;
  /** dropped / (frames + dropped), % */
  readonly droppedPct: number;
  /** the frame interval the count is based on, ms */
  readonly vsyncMs: number;
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] as number;
}

export function frameStats(timestamps: readonly number[], vsyncMs: number): FrameStats {
  const iv: number[] = [];
  for (let i = 1; i < timestamps.length; i++) iv.push((timestamps[i] as number) - (timestamps[i - 1] as number));
  const sorted = [...iv].sort((a, b) => a - b);
  let dropped = 0;
  for (const d of iv) dropped += Math.max(0, Math.round(d / vsyncMs) - 1);
  return {
    frames: iv.length,
    p50Ms: quantile(sorted, 0.5),
    p95Ms: quantile(sorted, 0.95),
    p99Ms: quantile(sorted, 0.99),
    maxMs: sorted.at(-1) ?? NaN,
    over20Pct: iv.length === 0 ? 0 : (100 * iv.filter((d) => d > 20).length) / iv.length,
    dropped,
    droppedPct: iv.length + dropped === 0 ? 0 : (100 * dropped) / (iv.length + dropped),
    vsyncMs,
  };
}
