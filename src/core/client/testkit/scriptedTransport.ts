import type { ClusterMap, NodeId } from '../../domain/clusterMap';
import type { DataReply, NodeRequest } from '../../domain/protocol';
import type { Scheduler } from '../../time/scheduler';
import { TransportFailure, type Transport, type TransportOutcome } from '../transport';

/** One scripted answer: a reply, a thrown error, or silence (the request times out). */
export type ScriptedAnswer =
  | { readonly reply: DataReply; readonly afterMs?: number }
  | { readonly fail: unknown; readonly afterMs?: number }
  | { readonly silent: true };

/** A request as the transport saw it. */
export interface SentRequest {
  readonly t: number;
  readonly node: NodeId;
  readonly request: NodeRequest;
  readonly timeoutMs: number;
}

/**
 * A test transport on a virtual scheduler: data requests get answers from a
 * script (per call, in order, or from a function); map requests answer with
 * `mapOf(node)` after `mapLatencyMs`. Every request is recorded.
 */
export class ScriptedTransport implements Transport {
  readonly sent: SentRequest[] = [];
  mapLatencyMs = 5;
  dataLatencyMs = 1;
  /** when true, a scripted answer later than the request's timeout becomes a Timeout at timeoutMs */
  enforceTimeouts = false;

  constructor(
    private readonly scheduler: Scheduler,
    public answer: (node: NodeId, request: NodeRequest, index: number) => ScriptedAnswer,
    public mapOf: (node: NodeId) => ClusterMap | null,
  ) {}

  get dataRequests(): SentRequest[] {
    return this.sent.filter((s) => s.request.type === 'data');
  }
  get mapRequests(): SentRequest[] {
    return this.sent.filter((s) => s.request.type === 'map');
  }

  send(node: NodeId, request: NodeRequest, timeoutMs: number, done: (outcome: TransportOutcome) => void): void {
    this.sent.push({ t: this.scheduler.now(), node, request, timeoutMs });
    if (request.type === 'map') {
      const map = this.mapOf(node);
      if (map === null) {
        this.scheduler.setTimer(timeoutMs, () => done({ ok: false, error: new TransportFailure('Timeout') }));
      } else {
        this.scheduler.setTimer(this.mapLatencyMs, () => done({ ok: true, reply: { status: 'Ok', map } }));
      }
      return;
    }
    const index = this.dataRequests.length - 1;
    const a = this.answer(node, request, index);
    if ('silent' in a || (this.enforceTimeouts && (a.afterMs ?? this.dataLatencyMs) > timeoutMs)) {
      this.scheduler.setTimer(timeoutMs, () => done({ ok: false, error: new TransportFailure('Timeout') }));
    } else if ('reply' in a) {
      this.scheduler.setTimer(a.afterMs ?? this.dataLatencyMs, () => done({ ok: true, reply: a.reply }));
    } else {
      this.scheduler.setTimer(a.afterMs ?? this.dataLatencyMs, () => done({ ok: false, error: a.fail }));
    }
  }
}

