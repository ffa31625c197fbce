import type { ClientView, ClusterView } from '../../core/cluster/views';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { FaultMarker, PauseSpan, TelemetrySnapshot } from './snapshot';
import type { SliceCreator } from './storeTypes';
import { TelemetryAggregator } from './telemetryAggregator';

/** the time windows the charts can show */
export const TIME_WINDOWS = ['15s', '60s', 'session'] as const;
export type TimeWindow = (typeof TIME_WINDOWS)[number];

/**
 * The event stream folded into bounded windowed aggregates. Batches are
 * folded with ONE `set` each (a counter bump nobody renders from); panels
 * read only `snapshot`, which `publish()` replaces a few times per second.
 */
export interface TelemetrySlice {
  /** the mutable aggregates; panels never read it (they read `snapshot`) */
  readonly aggregator: TelemetryAggregator;
  /** events folded in since the last publish */
  pending: number;
  /** the latest published, immutable snapshot */
  snapshot: TelemetrySnapshot;
  /** the charts' time window */
  timeWindow: TimeWindow;
  /** evidence cards the user dismissed (fault evidence ids) */
  dismissedEvidence: readonly number[];
  /** the workload's pauses this session (the charts shade them) */
  pauseSpans: readonly PauseSpan[];
  /** the workload stopped (Pause) or sent again (Start) at session time `t` (default: the newest event's) */
  noteWorkload(running: boolean, t?: number): void;
  setTimeWindow(w: TimeWindow): void;
  dismissEvidence(id: number): void;
  ingestBatch(batch: EventBatch): void;
  /** encodes and folds decoded events (tests, replays) */
  ingestEvents(events: readonly ZarisEvent[]): void;
  /** copies the aggregates out into a new snapshot (no-op when nothing changed) */
  publish(): void;
  resetTelemetry(): void;
  /** a replay's frame: the snapshot, fault markers and views at its cursor, computed elsewhere (one `set`) */
  showFrame(snapshot: TelemetrySnapshot, faults: readonly FaultMarker[], cluster: ClusterView | null, client: ClientView | null, pauses?: readonly PauseSpan[]): void;
  /** the live session's final-state check (key → version the cluster holds, for writes acknowledged up to `asOfMs`) */
  checkFinalData(asOfMs: number, versions: ReadonlyMap<string, number>): void;
  /** a cluster view's availability report (the live control worker watches that invariant): listed from now on */
  reportAvailability(view: ClusterView): void;
}

export const createTelemetrySlice: SliceCreator<TelemetrySlice> = (set, get) => {
  const aggregator = new TelemetryAggregator(() => get().clientConfig);
  const afterIngest = (n: number) => {
    const s = get();
    const faults = aggregator.faults;
    set(faults !== s.faultMarkers ? { pending: s.pending + n, faultMarkers: faults } : { pending: s.pending + n });
  };
  return {
    aggregator,
    pending: 0,
    snapshot: aggregator.snapshot(),
    timeWindow: '60s',
    dismissedEvidence: [],
    pauseSpans: aggregator.pauses,
    noteWorkload: (running, t) => {
      if (aggregator.noteWorkload(running, t)) set({ pauseSpans: aggregator.pauses, snapshot: aggregator.snapshot(undefined, get().timeWindow === 'session'), pending: 0 });
    },
    // the whole-session ring is copied at publish only while a view shows it
    setTimeWindow: (timeWindow) => set({ timeWindow, snapshot: aggregator.snapshot(undefined, timeWindow === 'session'), pending: 0 }),
    dismissEvidence: (id) => set((s) => ({ dismissedEvidence: [...s.dismissedEvidence.filter((x) => x !== id), id] })),
    ingestBatch: (batch) => {
      if (batch.n === 0) return;
      aggregator.ingestBatch(batch);
      afterIngest(batch.n);
    },
    ingestEvents: (events) => {
      aggregator.ingestEvents(events);
      afterIngest(events.length);
    },
    publish: () => {
      if (get().pending === 0) return;
      set({ snapshot: aggregator.snapshot(undefined, get().timeWindow === 'session'), pending: 0 });
    },
    checkFinalData: (asOfMs, versions) => {
      aggregator.checkFinalData(asOfMs, versions);
      set({ snapshot: aggregator.snapshot(undefined, get().timeWindow === 'session'), pending: 0 });
    },
    reportAvailability: (view) => {
      if (view.availability === undefined) return;
      if (aggregator.reportAvailability(view.availability) && aggregator.events > 0) set({ snapshot: aggregator.snapshot(undefined, get().timeWindow === 'session'), pending: 0 });
    },
    showFrame: (snapshot, faults, cluster, client, pauses = []) => {
      // the same markers keep their identity (every panel reads them: a new array would redraw them all at once)
      const prev = get().faultMarkers;
      const same = prev.length === faults.length && prev.every((m, i) => m.t === faults[i]?.t && m.action === faults[i]?.action && m.node === faults[i]?.node);
      const prevPauses = get().pauseSpans;
      const samePauses = prevPauses.length === pauses.length && prevPauses.every((p, i) => p.from === pauses[i]?.from && p.to === pauses[i]?.to);
      set({ snapshot: { ...snapshot, version: get().snapshot.version + 1 }, ...(same ? {} : { faultMarkers: faults }), ...(samePauses ? {} : { pauseSpans: pauses }), pending: 0, cluster, client });
    },
    resetTelemetry: () => {
      aggregator.reset();
      set({ snapshot: aggregator.snapshot(undefined, get().timeWindow === 'session'), pending: 0, faultMarkers: aggregator.faults, pauseSpans: aggregator.pauses, dismissedEvidence: [] });
    },
  };
};
