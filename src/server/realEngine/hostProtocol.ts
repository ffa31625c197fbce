/**
 * Messages between the bridge (the server's process) and the engine host
 * (the child process it owns, engineHost.ts), over Node's IPC channel with
 * structured-clone serialization (typed arrays travel as they are). Only the
 * bridge writes commands, and only after validating the page's message.
 */
import type { FaultCommand } from '../../core/cluster/faults';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import type { BridgeMessage } from '../../platform/realEngineProtocol';

export type HostCommand =
  | { readonly type: 'start'; readonly id: number; readonly preset: string }
  | { readonly type: 'pause'; readonly id: number }
  | { readonly type: 'resume'; readonly id: number }
  | { readonly type: 'fault'; readonly id: number; readonly command: FaultCommand };

export type HostMessage = BridgeMessage | { readonly kind: 'batch'; readonly batch: EventBatch };
