import type { NodeId } from '../domain/clusterMap';
import type { NodeReply, NodeRequest } from '../domain/protocol';
import { NON_RETRYABLE, TRANSPORT_ERRORS, type OpErrorCode, type TransportErrorCode } from '../domain/status';

/** A typed transport failure (the node was not reached, or did not answer in time). */
export class TransportFailure {
  constructor(
    readonly code: TransportErrorCode,
    /** human detail, e.g. "connection refused" */
    readonly detail?: string,
  ) {}
}

export type TransportOutcome =
  | { readonly ok: true; readonly reply: NodeReply }
  | { readonly ok: false; readonly error: unknown };

/**
 * How the client talks to nodes: one request, one outcome. The simulation,
 * the worker ports and (later) a Redis Cluster connection implement it; the
 * client knows nothing else about what is on the other side.
 */
export interface Transport {
  /**
   * Sends `request` to `node`. Calls `done` exactly once: with the node's
   * reply, or with an error — a {@link TransportFailure} for transport
   * problems (`Timeout` after `timeoutMs`), anything else is non-retryable.
   * The outcome object is the caller's only during the call (the simulation
   * reuses it for a later request); the reply it carries is the caller's to keep.
   */
  send(node: NodeId, request: NodeRequest, timeoutMs: number, done: (outcome: TransportOutcome) => void): void;
}

/** classifies an error: a transport failure code, or NonRetryable for anything else */
export function errorCodeOf(error: unknown): OpErrorCode {
  if (error instanceof TransportFailure && (TRANSPORT_ERRORS as readonly string[]).includes(error.code)) return error.code;
  return NON_RETRYABLE;
}
