import { useMemo } from 'react';
import { selectFaultMarkers, selectTimeDomain, selectWindowCaption, selectWindowView } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import type { Outcome } from '../../core/domain/status';
import { OUTCOME_STYLE } from '../theme/statusColors';
import type { TimeSeries } from './chart/TimeChart';
import { useTimeCursor } from './timeCursor';
import { usePanelSnapshot } from './visibility';

/**
 * The published snapshot as the chosen time window sees it (15 s / 60 s / whole session), its
 * caption ("last 60 s · 500 ms steps"), the x domain and the fault markers every time chart
 * shares (the replay's range when a time cursor is provided).
 */
export function useTimeWindow() {
  const published = usePanelSnapshot();
  const timeWindow = useDashboard((s) => s.timeWindow);
  const faults = useDashboard((s) => s.faultMarkers);
  const cursor = useTimeCursor();
  const snap = useMemo(() => (cursor ? published : selectWindowView(published, timeWindow)), [published, timeWindow, cursor]);
  const caption = cursor ? 'at the cursor' : selectWindowCaption(snap, timeWindow);
  const own = useMemo(() => selectTimeDomain(snap), [snap]);
  // a replay shows the whole run (or 60 s around its cursor) instead of the live window
  const domain = cursor?.domain ?? own;
  const markers = useMemo(() => selectFaultMarkers(faults, snap), [faults, snap]);
  return { snap, domain, markers, caption, empty: snap.window.length < 3 };
}

/** one series per outcome, styled from the one series config */
export function outcomeSeries(keys: readonly Outcome[], kind: 'area' | 'line', stack?: string): TimeSeries[] {
  return keys.map((k) => ({ key: k, label: OUTCOME_STYLE[k].label, color: OUTCOME_STYLE[k].color, kind, ...(stack ? { stack } : {}) }));
}
