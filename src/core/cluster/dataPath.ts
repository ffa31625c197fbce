/**
 * What a node answers (SPEC §3). One decision per request, taken when the
 * node serves it, against the ownership it knows (`routeAt`), then the
 * owner's answer against its own copy (`evaluate`). Both shells call these
 * two: the simulation's nodes (`sim/simCluster.ts`, against the control
 * plane's record) and live nodes (`NodeCore`, against their pushed view).
 * Carrying out a committed write (replication) is the shell's part.
 */
import { NO_OWNER, type NodeId } from '../domain/clusterMap';
import { isWrite, type DataReply, type DataRequest } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import type { SegmentPhase } from './controlState';
import type { Entry } from './segmentStore';

/** What routing needs to know of the cluster: the control plane's record, or a node's view of it. */
export interface RoutingView {
  segment(s: number): { readonly owner: NodeId; readonly replicas: readonly NodeId[]; readonly phase: SegmentPhase };
  /** the member runs and answers (as far as this view knows) */
  isServing(id: NodeId): boolean;
}

/**
 * The non-owner branch is one decision (the seed's OwnershipFailureStatus):
 * a handoff in progress → OwnershipChanging; settled → Moved.
 */
export function ownershipFailureStatus(view: RoutingView, segment: number): KvStatus {
  return view.segment(segment).phase === 'transitioning' ? KvStatus.OwnershipChanging : KvStatus.Moved;
}

/**
 * The routing decision of node `node` for a request on `segment`: serve, or
 * which status. A node that knows the segment has no reachable owner — none
 * at all, or one its view lists as crashed or hung (the detector has not
 * promoted a replica yet) — answers `Unavailable`: re-routing cannot help,
 * so the client retries after a backoff without a refresh. A replica still
 * serves reads. `fenced`: this node is the owner being fenced for a handoff
 * of the segment (its own flag, `handoff.ts`).
 */
export function routeAt(view: RoutingView, node: NodeId, fenced: boolean, req: DataRequest): 'serve' | KvStatus {
  const seg = view.segment(req.segment);
  const write = isWrite(req.kind);
  if (seg.owner === node) {
    // fenced for a handoff: the final state is on its way to the new owner
    if (fenced) return KvStatus.OwnershipChanging;
    if (write && seg.phase === 'migrating') return KvStatus.Migrating;
    return 'serve';
  }
  if (seg.owner === NO_OWNER) return KvStatus.Unavailable;
  if (seg.phase === 'transitioning') return KvStatus.OwnershipChanging;
  const replica = seg.replicas.includes(node);
  if (replica && !write) return 'serve';
  if (!view.isServing(seg.owner)) return KvStatus.Unavailable;
  if (replica) return KvStatus.ReplicaWriteRejected;
  return ownershipFailureStatus(view, req.segment);
}

/**
 * What a served request comes to: an answer (a reply, it has a status), or
 * the entry a write commits (no status). One object, no wrapper: this runs
 * on every request a node serves.
 */
export type Evaluation = DataReply | Entry;

/** whether {@link evaluate} came to a write to commit (else it is the reply) */
export function isCommit(ev: Evaluation): ev is Entry {
  return !('status' in ev);
}

/**
 * A reply without a value. Every reply a node builds has the same fields in
 * the same order (`value` undefined when there is none): one object shape,
 * so the client's reads of a reply stay monomorphic on the hot path.
 */
export function answer(status: KvStatus, version: number | undefined): DataReply {
  return { status, value: undefined, version };
}

/**
 * The owner's answer to a request against its own store: a read's value, a
 * failed condition (`Conflict`), an absent key (`NotFound`), or the entry a
 * write commits (version + 1; `value: null` is a delete's tombstone).
 */
export function evaluate(store: ReadonlyMap<string, Entry>, req: DataRequest): Evaluation {
  const current = store.get(req.key);
  const exists = current !== undefined && current.value !== null;
  const version = current?.version ?? 0;
  if (req.kind === 'get') {
    return { status: exists ? KvStatus.Ok : KvStatus.NotFound, value: exists ? (current.value as string) : undefined, version };
  }
  const cond = req.cond;
  if (req.kind === 'put') {
    if (cond?.ifAbsent === true && exists) return answer(KvStatus.Conflict, version);
    if (cond?.ifMatchVersion !== undefined && (!exists || version !== cond.ifMatchVersion)) return answer(KvStatus.Conflict, version);
    return { value: req.value ?? '', version: version + 1 };
  }
  if (!exists) return answer(KvStatus.NotFound, version);
  if (cond?.ifAbsent === true) return answer(KvStatus.Conflict, version);
  if (cond?.ifMatchVersion !== undefined && version !== cond.ifMatchVersion) return answer(KvStatus.Conflict, version);
  return { value: null, version: version + 1 };
}
