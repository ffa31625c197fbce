/**
 * Offscreen panels skip chart updates: a cell reports whether it is near the
 * viewport, and panels hold their last snapshot while it is not. Chart
 * updates are the dominant cost of the dashboard (tens of ms each).
 */
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import type { TelemetrySnapshot } from '../store/snapshot';
import { useDashboard } from '../store/StoreContext';
import { enqueueRedraw } from './updateQueue';

const VisibleContext = createContext(true);

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
      <VisibleContext.Provider value={visible}>{children}</VisibleContext.Provider>
    </div>
  );
}

/**
 * The telemetry snapshot a panel draws: held while the panel is offscreen,
 * and otherwise taken up through the redraw queue, one panel per frame.
 */
export function usePanelSnapshot(): TelemetrySnapshot {
  const visible = useContext(VisibleContext);
  const live = useDashboard((s) => s.snapshot);
  const [shown, setShown] = useState(live);
  useEffect(() => {
    if (!visible || shown === live) return;
    return enqueueRedraw(() => setShown(live));
  }, [visible, live, shown]);
  return shown;
}
