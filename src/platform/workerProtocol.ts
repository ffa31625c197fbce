/**
 * Messages on the MessagePorts between workers (typed; no stringly payloads).
 * Commands from the main thread go through Comlink (each worker exports its
 * API type); these ports carry the high-rate traffic.
 */
import type { Entry } from '../core/cluster/clusterState';
import type { NodeView } from '../core/cluster/nodeCore';
import type { NodeReply, NodeRequest } from '../core/domain/protocol';
import type { EventBatch } from '../core/telemetry/eventCodec';
import type { ClientView, ClusterView } from '../core/cluster/views';

/** client → node */
export interface NodeCall {
  readonly id: number;
  readonly req: NodeRequest;
}
/** node → client */
export interface NodeAnswer {
  readonly id: number;
  readonly reply: NodeReply;
}

/** node ↔ node: synchronous replication and segment snapshots */
export type PeerMessage =
  | { readonly kind: 'rep'; readonly id: number; readonly segment: number; readonly key: string; readonly entry: Entry }
  | { readonly kind: 'repAck'; readonly id: number }
  | { readonly kind: 'snapshot'; readonly segment: number; readonly entries: readonly (readonly [string, Entry])[] };

/** node → control */
export type NodeToControl =
  | { readonly kind: 'heartbeat'; readonly keyCounts: readonly number[] }
  | { readonly kind: 'replicaLost'; readonly segment: number; readonly replica: number };

/** control → node */
export type ControlToNode =
  | { readonly kind: 'view'; readonly view: NodeView }
  | { readonly kind: 'copy'; readonly segment: number; readonly to: number }
  | { readonly kind: 'hang'; readonly on: boolean }
  | { readonly kind: 'slow'; readonly factor: number; readonly untilMs: number }
  | { readonly kind: 'lostAck'; readonly probability: number; readonly untilMs: number };

/** any worker → main thread (telemetry port) */
export type TelemetryMessage =
  | { readonly kind: 'batch'; readonly batch: EventBatch }
  | { readonly kind: 'clusterView'; readonly view: ClusterView }
  | { readonly kind: 'clientView'; readonly view: ClientView }
  | { readonly kind: 'error'; readonly message: string };
