/**
 * Messages on the MessagePorts between workers (typed; no stringly payloads).
 * Commands from the main thread go through Comlink (each worker exports its
 * API type); these ports carry the high-rate traffic.
 */
import type { NodeReply, NodeRequest } from '../core/domain/protocol';
import type { EventBatch } from '../core/telemetry/eventCodec';
import type { ClientView, ClusterView } from '../core/cluster/views';

/** client → node (sent as arrays: the calls of one task) */
export interface NodeCall {
  readonly id: number;
  readonly req: NodeRequest;
}
/** node → client (sent as arrays: the answers of one task) */
/** a node's answer to one call; `garbled`: it arrived corrupted (the garble fault), the client sees a Transport error */
export type NodeAnswer = { readonly id: number; readonly reply: NodeReply; readonly garbled?: undefined } | { readonly id: number; readonly garbled: true; readonly reply?: undefined };

export type { PeerMessage, NodeToControl, ControlToNode } from '../core/cluster/live/protocol';

/** any worker → main thread (telemetry port) */
export type TelemetryMessage =
  | { readonly kind: 'batch'; readonly batch: EventBatch }
  | { readonly kind: 'clusterView'; readonly view: ClusterView }
  | { readonly kind: 'clientView'; readonly view: ClientView }
  | { readonly kind: 'error'; readonly message: string };
