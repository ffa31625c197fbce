import { useMemo } from 'react';
import { selectFaultMarkers, selectTimeDomain } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import type { Outcome } from '../../core/domain/status';
import { OUTCOME_STYLE } from '../theme/statusColors';
import type { TimeSeries } from './chart/TimeChart';
import { usePanelSnapshot } from './visibility';

/** the published snapshot, the x domain and the fault markers every time chart shares */
export function useTimeWindow() {
  const snap = usePanelSnapshot();
  const faults = useDashboard((s) => s.faultMarkers);
  const domain = useMemo(() => selectTimeDomain(snap), [snap]);
  const markers = useMemo(() => selectFaultMarkers(faults, snap), [faults, snap]);
  return { snap, domain, markers, empty: snap.window.length < 3 };
}

/** one series per outcome, styled from the one series config */
export function outcomeSeries(keys: readonly Outcome[], kind: 'area' | 'line', stack?: string): TimeSeries[] {
  return keys.map((k) => ({ key: k, label: OUTCOME_STYLE[k].label, color: OUTCOME_STYLE[k].color, kind, ...(stack ? { stack } : {}) }));
}
