/**
 * Messages between the live playground's node workers and the control plane
 * (typed; no stringly payloads). They live in the core because the node and
 * control logic that speaks them is pure (`liveNode.ts`, `liveControl.ts`);
 * the workers only move them over MessagePorts.
 */
import type { NodeId } from '../../domain/clusterMap';
import type { Entry } from '../segmentStore';
import type { LinkFaultCommand } from '../linkFaults';
import type { NodeView } from '../nodeCore';

/** one segment's copy: key → entry (tombstones included, so a delete survives a copy) */
export type SegmentEntries = readonly (readonly [string, Entry])[];

/** one applied write on its way to the node's disk */
export interface DiskWrite {
  readonly segment: number;
  readonly key: string;
  readonly entry: Entry;
}

/** node ↔ node: synchronous replication and segment snapshots */
export type PeerMessage =
  | { readonly kind: 'rep'; readonly id: number; readonly segment: number; readonly key: string; readonly entry: Entry }
  | { readonly kind: 'repAck'; readonly id: number }
  /** a copy of the sender's segment (catch-up, or the final state of a fenced owner when `handoff` is set) */
  | { readonly kind: 'snapshot'; readonly segment: number; readonly entries: SegmentEntries; readonly handoff?: number };

/** node → control plane (and the node's disk, which the control worker holds) */
export type NodeToControl =
  | { readonly kind: 'heartbeat'; readonly keyCounts: readonly number[] }
  | { readonly kind: 'replicaLost'; readonly segment: number; readonly replica: NodeId }
  /** the new owner holds the fenced owner's final state of `segment` */
  | { readonly kind: 'caughtUp'; readonly handoff: number; readonly segment: number }
  /**
   * disk: applied writes (one message per tick at most). `incarnation` is
   * the sender's (from its replay): the disk drops writes of an incarnation
   * older than the one it replayed to last, so a crashed worker's late
   * messages never reach the disk behind its restarted self. `seq` is
   * answered with `persisted`: an owner acknowledges a write only then.
   */
  | { readonly kind: 'persist'; readonly incarnation: number; readonly seq: number; readonly writes: readonly DiskWrite[] }
  /** disk: a loaded snapshot (merged by version) */
  | { readonly kind: 'persistSegment'; readonly incarnation: number; readonly segment: number; readonly entries: SegmentEntries }
  /** the node's data, for the final-state check */
  | { readonly kind: 'dumped'; readonly id: number; readonly segments: readonly SegmentEntries[] };

/** control plane → node */
export type ControlToNode =
  /** the node's disk, sent once right after the node (re)links, before any view; `incarnation` counts its links */
  | { readonly kind: 'replay'; readonly incarnation: number; readonly segments: readonly (readonly [number, SegmentEntries])[] }
  /** disk: every write of `persist` batches up to `seq` is durable */
  | { readonly kind: 'persisted'; readonly seq: number }
  | { readonly kind: 'view'; readonly view: NodeView }
  | { readonly kind: 'copy'; readonly segment: number; readonly to: NodeId }
  /** stop acknowledging `segment` (answer OwnershipChanging) and send its final state to `to` */
  | { readonly kind: 'fence'; readonly handoff: number; readonly segment: number; readonly to: NodeId }
  /** an aborted handoff: serve `segment` again */
  | { readonly kind: 'unfence'; readonly segment: number }
  | { readonly kind: 'dump'; readonly id: number }
  | { readonly kind: 'hang'; readonly on: boolean }
  /** a fault on the node's client link (slow, lost ack, partition, garble): the node applies it to its LinkFaults */
  | { readonly kind: 'link'; readonly cmd: LinkFaultCommand };
