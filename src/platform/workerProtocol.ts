/**
 * Messages on the MessagePorts between workers (typed; no stringly payloads).
 * Commands from the main thread go through Comlink (each worker exports its
 * API type); these ports carry the high-rate traffic.
 */
import type { NodeReply, NodeRequest } from '../core/domain/protocol';
import type { EventBatch } from '../core/telemetry/eventCodec';
import type { ClientView, ClusterView } from '../core/cluster/views';
import type { WriteAuditReport } from '../core/sim/applyTracker';

/** client → node (sent as arrays: the calls of one task) */
export interface NodeCall {
  readonly id: number;
  readonly req: NodeRequest;
}
/** node → client (sent as arrays: the answers of one task) */
/** a node's answer to one call; `garbled`: it arrived corrupted (the garble fault), the client sees a Transport error */
export type NodeAnswer = { readonly id: number; readonly reply: NodeReply; readonly garbled?: undefined } | { readonly id: number; readonly garbled: true; readonly reply?: undefined };
/**
 * node → client's worker, on the same port: the node applied operation
 * `applied`'s write. For the ambiguous-write audit only (its ground truth,
 * as the simulation's data path reports each apply); the transport hands it
 * to the audit, never to the client library, and link faults do not drop it.
 */
export interface NodeNotice {
  readonly applied: number;
}

export type { PeerMessage, NodeToControl, ControlToNode } from '../core/cluster/live/protocol';

/** any worker → main thread (telemetry port) */
export type TelemetryMessage =
  | { readonly kind: 'batch'; readonly batch: EventBatch }
  | { readonly kind: 'clusterView'; readonly view: ClusterView }
  | { readonly kind: 'clientView'; readonly view: ClientView }
  /** the live client worker's ambiguous-write audit (its client's operations against the nodes' apply notices) */
  | { readonly kind: 'writeAudit'; readonly audit: WriteAuditReport }
  | { readonly kind: 'error'; readonly message: string };
