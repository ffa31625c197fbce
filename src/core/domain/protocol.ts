import type { ClusterMap, NodeId } from './clusterMap';
import type { KvStatus } from './status';

/** What an operation does to a key. */
export type OpKind = 'get' | 'put' | 'delete';
export const OP_KINDS: readonly OpKind[] = ['get', 'put', 'delete'];

/** Write conditions; a failed condition answers `Conflict`. */
export interface WriteCondition {
  /** compare-and-swap: apply only if the stored version equals this */
  readonly ifMatchVersion?: number;
  /** create-once: apply only if the key is absent */
  readonly ifAbsent?: boolean;
}

/** One data request on the wire from client to node. */
export interface DataRequest {
  readonly type: 'data';
  readonly kind: OpKind;
  readonly key: string;
  readonly segment: number;
  readonly value?: string | undefined;
  readonly cond?: WriteCondition | undefined;
  /** epoch of the client's map that routed this request (for telemetry) */
  readonly epoch: number;
  /** operation id, so the cluster can attribute writes (duplicate applies) */
  readonly op: number;
}

/** A cluster-map fetch. */
export interface MapRequest {
  readonly type: 'map';
}

export type NodeRequest = DataRequest | MapRequest;

/** A node's typed answer. */
export interface DataReply {
  readonly status: KvStatus;
  readonly value?: string;
  /** version of the value read, or of the value just written */
  readonly version?: number;
}

export interface MapReply {
  readonly status: 'Ok';
  readonly map: ClusterMap;
}

export type NodeReply = DataReply | MapReply;

export function isWrite(kind: OpKind): boolean {
  return kind !== 'get';
}

export type { NodeId };
