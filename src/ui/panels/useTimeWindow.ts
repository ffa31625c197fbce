import { useMemo } from 'react';
import { selectFaultMarkers, selectNothingToDraw, selectTimeDomain, selectWindowCaption, selectWindowView, type StepPlan } from '../store/selectors';
import type { DashboardStore } from '../store/dashboardStore';
import type { FaultMarker, TelemetrySnapshot } from '../store/snapshot';
import { useDashboard, useDashboardStore } from '../store/StoreContext';
import type { Outcome } from '../../core/domain/status';
import { OUTCOME_STYLE } from '../theme/statusColors';
import { MIN_STEP_MS, stepBucketsFor } from './chart/scale';
import type { TimeSeries } from './chart/TimeChart';
import { useTimeCursor } from './timeCursor';
import { usePanelSnapshot } from './visibility';

/**
 * The published snapshot as the chosen time window sees it (15 s / 60 s / whole session), its
 * caption ("last 60 s · 500 ms steps"), the x domain, the fault markers and the step plan every
 * time chart shares (the replay's range when a time cursor is provided). The markers are read when
 * the snapshot is taken, not on every fault event: a fault then redraws the panels through the
 * redraw queue with the next publish, instead of every chart at once in the event's task. The step
 * plan draws steps of at least `MIN_STEP_MS` and at most `MAX_STEPS` per window and begins a step at
 * every fault's bucket, so a fault's effect is never drawn before the fault.
 */
export function useTimeWindow() {
  const published = usePanelSnapshot();
  const store = useDashboardStore();
  const timeWindow = useDashboard((s) => s.timeWindow);
  const cursor = useTimeCursor();
  const snap = useMemo(() => (cursor ? published : selectWindowView(published, timeWindow)), [published, timeWindow, cursor]);
  const own = useMemo(() => selectTimeDomain(snap), [snap]);
  // a replay shows the whole run (or 60 s around its cursor) instead of the live window
  const domain = cursor?.domain ?? own;
  const faults = useMemo(() => faultsAt(store, snap), [store, snap]);
  const markers = useMemo(() => selectFaultMarkers(faults, snap), [faults, snap]);
  const breaks = useMemo(() => faults.map((m) => Math.floor(m.t / snap.bucketMs)), [faults, snap.bucketMs]);
  const stepBuckets = stepBucketsFor(snap.window.length, MIN_STEP_MS / snap.bucketMs);
  const plan = useMemo((): StepPlan => ({ stepBuckets, breaks }), [stepBuckets, breaks]);
  // a replay's charts draw the run from its start to the cursor, not one instant
  const caption = cursor ? 'up to the cursor' : selectWindowCaption(snap, timeWindow, stepBuckets);
  return { snap, domain, markers, plan, caption, empty: selectNothingToDraw(snap) };
}

/** the fault markers when `snap` is taken (the snapshot is the memo key: markers follow the data they mark) */
function faultsAt(store: DashboardStore, snap: TelemetrySnapshot): readonly FaultMarker[] {
  void snap;
  return store.getState().faultMarkers;
}

/** one series per outcome, styled from the one series config */
export function outcomeSeries(keys: readonly Outcome[], kind: 'area' | 'line', stack?: string): TimeSeries[] {
  return keys.map((k) => ({ key: k, label: OUTCOME_STYLE[k].label, color: OUTCOME_STYLE[k].color, kind, ...(stack ? { stack } : {}) }));
}
