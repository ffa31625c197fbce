/**
 * Replica-set shrink, for both shells: a replica that missed a synchronous
 * write (it is down or hung in the simulation; its ack did not come within
 * the replication timeout live) is no longer in sync and leaves the
 * segment's replica set; it catches up and rejoins when it serves again
 * (`ControlPlane` repairs the set). Ownership does not change, so neither
 * does the epoch (like an ISR shrink): a crash is one topology change, when
 * the detector declares the node dead, however many writes it missed.
 */
import type { NodeId } from '../domain/clusterMap';
import type { ControlState } from './controlState';

/** `leaving` leave `segment`'s replica set; true when the set changed */
export function leaveReplicaSet(state: ControlState, segment: number, leaving: (r: NodeId) => boolean): boolean {
  const seg = state.segment(segment);
  const kept = seg.replicas.filter((r) => !leaving(r));
  if (kept.length === seg.replicas.length) return false;
  seg.replicas = kept;
  state.touch();
  return true;
}
