/**
 * What a node answers (SPEC §3). One decision per request, taken when the
 * node serves it, against the cluster's current ownership; writes are applied
 * to the owner and every in-sync replica before the answer (synchronous
 * replication).
 */
import { NO_OWNER, type NodeId } from '../domain/clusterMap';
import { isWrite, type DataReply, type DataRequest } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import type { ClusterState, Entry } from './clusterState';
import { leaveReplicaSet } from './replicaSet';

/** Called for every write applied, so checkers can see duplicate applies. */
export type ApplyListener = (op: number, key: string, version: number) => void;

/**
 * The non-owner branch is one decision (the seed's OwnershipFailureStatus):
 * a handoff in progress → OwnershipChanging; settled → Moved.
 */
export function ownershipFailureStatus(state: ClusterState, segment: number): KvStatus {
  return state.segment(segment).phase === 'transitioning' ? KvStatus.OwnershipChanging : KvStatus.Moved;
}

/**
 * The routing decision of node `node` for a request on `segment`: serve, or
 * which status. A node that knows the segment has no reachable owner — none
 * at all, or one its view lists as crashed or hung (the detector has not
 * promoted a replica yet) — answers `Unavailable`: re-routing cannot help,
 * so the client retries after a backoff without a refresh. A replica still
 * serves reads.
 */
export function routeAt(state: ClusterState, node: NodeId, req: DataRequest): 'serve' | KvStatus {
  const seg = state.segment(req.segment);
  const write = isWrite(req.kind);
  if (seg.owner === node) {
    // fenced for a handoff: the final state is on its way to the new owner
    if (seg.fenced) return KvStatus.OwnershipChanging;
    if (write && seg.phase === 'migrating') return KvStatus.Migrating;
    return 'serve';
  }
  if (seg.owner === NO_OWNER) return KvStatus.Unavailable;
  if (seg.phase === 'transitioning') return KvStatus.OwnershipChanging;
  const replica = seg.replicas.includes(node);
  if (replica && !write) return 'serve';
  if (!state.isServing(seg.owner)) return KvStatus.Unavailable;
  if (replica) return KvStatus.ReplicaWriteRejected;
  return ownershipFailureStatus(state, req.segment);
}

/** What a served request comes to: an answer, or a write to commit. */
export type Evaluation = { readonly reply: DataReply; readonly commit?: undefined } | { readonly commit: Entry; readonly reply?: undefined };

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
    return { reply: exists ? { status: KvStatus.Ok, value: current.value as string, version } : { status: KvStatus.NotFound, version } };
  }
  const cond = req.cond;
  if (req.kind === 'put') {
    if (cond?.ifAbsent === true && exists) return { reply: { status: KvStatus.Conflict, version } };
    if (cond?.ifMatchVersion !== undefined && (!exists || version !== cond.ifMatchVersion)) return { reply: { status: KvStatus.Conflict, version } };
    return { commit: { value: req.value ?? '', version: version + 1 } };
  }
  if (!exists) return { reply: { status: KvStatus.NotFound, version } };
  if (cond?.ifAbsent === true) return { reply: { status: KvStatus.Conflict, version } };
  if (cond?.ifMatchVersion !== undefined && version !== cond.ifMatchVersion) return { reply: { status: KvStatus.Conflict, version } };
  return { commit: { value: null, version: version + 1 } };
}

/** Serves one data request at `node` (which must be serving), replicating writes in place (simulation). */
export function serveData(state: ClusterState, node: NodeId, req: DataRequest, onApply?: ApplyListener): DataReply {
  const route = routeAt(state, node, req);
  if (route !== 'serve') return { status: route };
  const ev = evaluate(state.store(node, req.segment), req);
  return ev.commit === undefined ? ev.reply : commit(state, node, req, ev.commit, onApply);
}

/** applies a write to the owner and, synchronously, to every serving replica */
function commit(state: ClusterState, owner: NodeId, req: DataRequest, entry: Entry, onApply?: ApplyListener): DataReply {
  state.store(owner, req.segment).set(req.key, entry);
  const seg = state.segment(req.segment);
  let shrunk = false;
  for (const r of seg.replicas) {
    if (state.isServing(r)) state.store(r, req.segment).set(req.key, entry);
    else shrunk = true;
  }
  // a replica that missed the write leaves the replica set (replicaSet.ts)
  if (shrunk) leaveReplicaSet(state, req.segment, (r) => !state.isServing(r));
  onApply?.(req.op, req.key, entry.version);
  return { status: KvStatus.Ok, version: entry.version };
}
