/**
 * Fault events as bands across every lane: a band runs from the fault to
 * the last cluster change on the same node that followed it before the next
 * fault on that node (failover → promoted, scale-out → migration end,
 * failback → handoff end). Presentation only: the cluster's own topology
 * events say when the churn settled; nothing here re-derives ownership.
 */
import type { ClusterEvent, FaultAction, TopologyEvent } from '../../core/telemetry/events';

export interface FaultBand {
  readonly action: FaultAction;
  readonly node: number;
  /** ms since run start */
  readonly t0: number;
  /** the last topology change it caused, or t0 when none followed (yet) */
  readonly t1: number;
  /** segments the fault put in motion */
  readonly segments: number;
  /** the last topology change in the band (null: none yet) */
  readonly settledBy: TopologyEvent['change'] | null;
  /** epoch after the band's last topology change */
  readonly epoch: number | null;
}

/** bands in time order; `events` in time order (TimelineRecorder.faults()) */
export function faultBands(events: readonly ClusterEvent[]): FaultBand[] {
  const bands: { -readonly [K in keyof FaultBand]: FaultBand[K] }[] = [];
  /** the open band per node (the latest fault on it) */
  const open = new Map<number, (typeof bands)[number]>();
  for (const e of events) {
    if (e.type === 'fault') {
      const b = { action: e.action, node: e.node, t0: e.t, t1: e.t, segments: e.segments.length, settledBy: null, epoch: null };
      bands.push(b);
      open.set(e.node, b);
    } else if (e.change !== 'initial') {
      const b = open.get(e.node);
      if (b !== undefined && e.t >= b.t0) {
        b.t1 = e.t;
        b.settledBy = e.change;
        b.epoch = e.epoch;
      }
    }
  }
  return bands;
}

/** epoch changes (topology events with a new epoch), for ticks on the refresh lane */
export function epochChanges(events: readonly ClusterEvent[]): { readonly t: number; readonly epoch: number }[] {
  const out: { t: number; epoch: number }[] = [];
  let last = -1;
  for (const e of events) {
    if (e.type !== 'topology' || e.epoch === last) continue;
    last = e.epoch;
    out.push({ t: e.t, epoch: e.epoch });
  }
  return out;
}
