/**
 * Panels redraw from the published snapshot through the redraw queue, one
 * panel per animation frame, rendered synchronously inside the queue's job
 * (`flushSync`: the job's time is the redraw's time, and two panels never
 * render in one frame; a React transition was tried here: ≈5 % more CPU per
 * publish, no better frames — Recharts' heavy pass is synchronous).
 * A cell reports whether it is near the viewport: on-screen panels take
 * every publish; offscreen panels take at most one every
 * {@link OFFSCREEN_REFRESH_MS} at background priority (after every on-screen
 * redraw), so a full-page screenshot or a scroll shows
 * recent data without costing the visible panels' frames. `refreshAllPanels`
 * brings every panel up to the latest snapshot on demand, in one task
 * (screenshots: every panel at the same snapshot). Each cell carries the
 * version of the snapshot its panel last drew (`data-snapshot`), so a test
 * can check that a screenshot shows one moment.
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode, type RefObject } from 'react';
import { flushSync } from 'react-dom';
import type { TelemetrySnapshot } from '../store/snapshot';
import { useDashboardStore } from '../store/StoreContext';
import { enqueueRedraw, flushRedraws } from './updateQueue';

/** ms between redraws of a panel that is offscreen */
export const OFFSCREEN_REFRESH_MS = 2_000;

const VisibleContext = createContext(true);
const CellContext = createContext<RefObject<HTMLDivElement | null> | null>(null);

/** whether the panel is (nearly) on screen (true outside a cell) */
export function usePanelVisible(): boolean {
  return useContext(VisibleContext);
}

/** a grid cell that tells its panel whether it is (nearly) on screen */
export function VisibleCell({ className, id, children }: { className: string; id: string; children: ReactNode }) {
  const ref = useRef<HTMLDivElement>(null);
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    const el = ref.current;
    if (el === null || typeof IntersectionObserver === 'undefined') return;
    const io = new IntersectionObserver((entries) => setVisible(entries.some((e) => e.isIntersecting)), { rootMargin: '200px' });
    io.observe(el);
    return () => io.disconnect();
  }, []);
  return (
    <div ref={ref} className={className} data-panel={id}>
      <CellContext.Provider value={ref}>
        <VisibleContext.Provider value={visible}>{children}</VisibleContext.Provider>
      </CellContext.Provider>
    </div>
  );
}

/** every mounted panel's "take the latest snapshot now" */
const refreshers = new Set<() => void>();

/** every panel takes the latest snapshot now, in this task (offscreen ones included) */
export function refreshAllPanels(): Promise<void> {
  for (const r of refreshers) r();
  flushRedraws();
  return Promise.resolve();
}

/**
 * The telemetry snapshot a panel draws. The panel does not re-render on a
 * publish by itself: it subscribes to the store outside React and takes the
 * latest snapshot when its turn in the redraw queue comes.
 */
export function usePanelSnapshot(): TelemetrySnapshot {
  const visible = useContext(VisibleContext);
  const cell = useContext(CellContext);
  const store = useDashboardStore();
  const [shown, setShown] = useState(() => store.getState().snapshot);
  const shownRef = useRef(shown);
  const lastTaken = useRef(0);
  useEffect(() => {
    let cancel: (() => void) | null = null;
    let trailing: ReturnType<typeof setTimeout> | null = null;
    const take = Object.assign(() => {
      cancel = null;
      const snap = store.getState().snapshot;
      if (snap === shownRef.current) return;
      shownRef.current = snap;
      lastTaken.current = performance.now();
      flushSync(() => setShown(snap));
      cell?.current?.setAttribute('data-snapshot', String(snap.version));
    }, { label: cell?.current?.dataset.panel ?? '?' });
    const want = (force = false) => {
      if (cancel !== null || store.getState().snapshot === shownRef.current) return;
      if (visible || force) {
        cancel = enqueueRedraw(take, 'visible');
        return;
      }
      const wait = lastTaken.current + OFFSCREEN_REFRESH_MS - performance.now();
      if (wait <= 0) cancel = enqueueRedraw(take, 'background');
      else if (trailing === null)
        trailing = setTimeout(() => {
          trailing = null;
          want();
        }, wait);
    };
    want();
    const unsubscribe = store.subscribe((s, prev) => {
      if (s.snapshot !== prev.snapshot) want();
    });
    const refresh = () => {
      cancel?.();
      cancel = null;
      take();
    };
    refreshers.add(refresh);
    return () => {
      unsubscribe();
      refreshers.delete(refresh);
      cancel?.();
      if (trailing !== null) clearTimeout(trailing);
    };
  }, [store, visible, cell]);
  return shown;
}
