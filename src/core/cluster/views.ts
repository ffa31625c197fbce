import type { ClusterMap } from '../domain/clusterMap';
import type { ControlState, NodeStatus, SegmentPhase } from './controlState';
import type { NodeView } from './nodeCore';

/** The cluster's truth as the control plane sees it (for panels). */
export interface ClusterView {
  /** ms since the session started */
  readonly t: number;
  readonly epoch: number;
  readonly nodes: readonly { readonly id: number; readonly status: NodeStatus; readonly declaredDead: boolean }[];
  /** active owner per segment (-1 = none) */
  readonly owners: readonly number[];
  readonly phases: readonly SegmentPhase[];
  readonly replicas: readonly (readonly number[])[];
  /** where the view comes from when it is not the cluster's own state (an imported file), or what is missing for one */
  readonly note?: string;
  /**
   * the invariant `replicatedSegmentsAvailable` as watched on this cluster's
   * truth up to `t` (the live control worker's views; `sim/availabilityRule.ts`)
   */
  readonly availability?: { readonly violations: number; readonly examples: readonly string[] };
  /**
   * set when each entry of `owners` stands for a range of an engine's hash slots (a Redis Cluster:
   * 16,384 slots drawn as one cell per segment of the scenario; `cellSlots` gives a cell's range)
   */
  readonly slots?: number;
  /** set when the view's source does not carry replica sets (an imported events file): `replicas` is empty, not "none" */
  readonly replicasUnknown?: true;
}

/** the slots cell `i` of `cells` stands for, [first, end), when `slots` hash slots are drawn as `cells` cells */
export function cellSlots(i: number, cells: number, slots: number): readonly [number, number] {
  return [Math.floor((i * slots) / cells), Math.floor(((i + 1) * slots) / cells)];
}

/** The client's cached map (what it routes by; may be stale). */
export interface ClientView {
  readonly t: number;
  readonly epoch: number;
  readonly owners: readonly number[];
}

export function clusterViewOf(state: ControlState, t: number): ClusterView {
  return {
    t,
    epoch: state.epoch,
    nodes: state.nodes.map((n) => ({ id: n.id, status: n.status, declaredDead: n.declaredDead })),
    owners: state.segments.map((s) => s.owner),
    phases: state.segments.map((s) => s.phase),
    replicas: state.segments.map((s) => [...s.replicas]),
  };
}

/** what nodes need of a cluster view */
export function nodeViewOf(view: ClusterView): NodeView {
  return { epoch: view.epoch, owners: view.owners, replicas: view.replicas, phases: view.phases, nodes: view.nodes };
}

export function clientViewOf(map: ClusterMap, t: number): ClientView {
  return { t, epoch: map.epoch, owners: map.owners };
}
