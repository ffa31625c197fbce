/**
 * Replica-set shrink, for both shells: a replica that missed a synchronous
 * write is no longer in sync and leaves the segment's replica set; it
 * catches up and rejoins when it serves again (`ControlPlane` repairs the
 * set). When the owner finds out is the same in both shells: a crashed
 * replica at once (its connection is reset: the simulation sees it down, the
 * page tells the live nodes, `peerGone`), a hung one only when its ack has
 * not come within {@link REPLICATION_TIMEOUT_MS} — the write waits that long
 * before it is acknowledged, which is what makes a hang's writes time out at
 * the client and be retried. Ownership does not change, so neither does the
 * epoch (like an ISR shrink): a crash is one topology change, when the
 * detector declares the node dead, however many writes it missed.
 */
import type { NodeId } from '../domain/clusterMap';
import type { ControlState } from './controlState';

/**
 * ms a write waits for a replica's ack before the replica is reported lost
 * (it then leaves the replica set until a failback); both shells. Below the
 * client's default attempt timeout (1 s) on purpose: the owner gives up on a
 * silent replica and acknowledges the write before the client gives up on
 * the owner, so a hung replica makes writes slow, not ambiguous. (At 1 s the
 * two timeouts raced: the simulation's client always lost by the reply's
 * latency and retried every write the hang caught, applying it twice,
 * while the live client's timer, late by a busy worker's few ms, often won.)
 * An attempt timeout set below this makes those writes ambiguous in both
 * shells alike. Generous otherwise: on a loaded 2-core machine a busy node
 * worker can stall for hundreds of ms, and a replica dropped by mistake
 * turns the next failover of its owner into Unavailable.
 */
export const REPLICATION_TIMEOUT_MS = 900;

/** `leaving` leave `segment`'s replica set; true when the set changed */
export function leaveReplicaSet(state: ControlState, segment: number, leaving: (r: NodeId) => boolean): boolean {
  const seg = state.segment(segment);
  const kept = seg.replicas.filter((r) => !leaving(r));
  if (kept.length === seg.replicas.length) return false;
  seg.replicas = kept;
  state.touch();
  return true;
}
