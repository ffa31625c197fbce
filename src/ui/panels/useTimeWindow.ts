import { useMemo } from 'react';
import { selectFaultMarkers, selectTimeDomain } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import type { Outcome } from '../../core/domain/status';
import { OUTCOME_STYLE } from '../theme/statusColors';
import type { TimeSeries } from './chart/TimeChart';
import { useTimeCursor } from './timeCursor';
import { usePanelSnapshot } from './visibility';

/** the published snapshot, the x domain and the fault markers every time chart shares (the replay's range when a time cursor is provided) */
export function useTimeWindow() {
  const snap = usePanelSnapshot();
  const faults = useDashboard((s) => s.faultMarkers);
  const cursor = useTimeCursor();
  const own = useMemo(() => selectTimeDomain(snap), [snap]);
  // a replay shows the whole run (or 60 s around its cursor) instead of the live window
  const domain = cursor?.domain ?? own;
  const markers = useMemo(() => selectFaultMarkers(faults, snap), [faults, snap]);
  return { snap, domain, markers, empty: snap.window.length < 3 };
}

/** one series per outcome, styled from the one series config */
export function outcomeSeries(keys: readonly Outcome[], kind: 'area' | 'line', stack?: string): TimeSeries[] {
  return keys.map((k) => ({ key: k, label: OUTCOME_STYLE[k].label, color: OUTCOME_STYLE[k].color, kind, ...(stack ? { stack } : {}) }));
}
