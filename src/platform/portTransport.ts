import { TransportFailure, type Transport, type TransportOutcome } from '../core/client/transport';
import type { NodeId } from '../core/domain/clusterMap';
import type { NodeRequest } from '../core/domain/protocol';
import { TransportErrorCode } from '../core/domain/status';
import { DeadlineTimers } from './deadlineTimers';
import { PortBatcher } from './portBatcher';
import type { NodeAnswer, NodeCall, NodeNotice } from './workerProtocol';

interface Pending {
  readonly node: NodeId;
  readonly done: (o: TransportOutcome) => void;
}

const TIMEOUT = (): TransportOutcome => ({ ok: false, error: new TransportFailure(TransportErrorCode.Timeout, 'no answer in time') });

/**
 * The client's transport in the live playground: one MessagePort per node
 * worker (a "connection"), request ids, a real timeout per request. When a
 * node's worker is terminated, the bridge reports the closed link (as the OS
 * would report a reset): requests in flight fail with Socket, new ones with
 * NodeUnavailable. A hung node simply never answers (Timeout). Request
 * timeouts share one real timer ({@link DeadlineTimers}), not one each, and
 * the calls of one task go to a node as one message ({@link PortBatcher};
 * the node answers the same way). A node's apply notices arrive on the same
 * port and go to `onApplied` (the audit), never to the client.
 */
export class PortTransport implements Transport {
  /** called with the op id of every write a node reports it applied */
  onApplied: ((op: number) => void) | null = null;
  private readonly links = new Map<NodeId, MessagePort>();
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private readonly outbox = new PortBatcher<NodeCall>();
  private readonly deadlines = new DeadlineTimers(
    () => performance.now(),
    (id) => {
      const p = this.pending.get(id);
      if (p === undefined) return;
      this.pending.delete(id);
      p.done(TIMEOUT());
    },
    (id) => this.pending.has(id),
    () => this.pending.size,
  );

  connect(node: NodeId, port: MessagePort): void {
    const old = this.links.get(node);
    if (old !== undefined) {
      this.outbox.drop(old);
      old.close();
    }
    port.onmessage = (ev: MessageEvent<readonly (NodeAnswer | NodeNotice)[]>) => {
      for (const a of ev.data) {
        if ('applied' in a) this.onApplied?.(a.applied);
        else this.answer(a);
      }
    };
    this.links.set(node, port);
  }

  /** the node's worker is gone: reset in-flight requests, refuse new ones */
  linkClosed(node: NodeId): void {
    const port = this.links.get(node);
    if (port !== undefined) {
      this.outbox.drop(port);
      port.close();
    }
    this.links.delete(node);
    for (const [id, p] of this.pending) {
      if (p.node !== node) continue;
      this.pending.delete(id);
      p.done({ ok: false, error: new TransportFailure(TransportErrorCode.Socket, 'connection reset') });
    }
  }

  send(node: NodeId, req: NodeRequest, timeoutMs: number, done: (outcome: TransportOutcome) => void): void {
    const port = this.links.get(node);
    if (port === undefined) {
      setTimeout(() => done({ ok: false, error: new TransportFailure(TransportErrorCode.NodeUnavailable, 'connection refused') }), 0);
      return;
    }
    const id = this.nextId++;
    this.pending.set(id, { node, done });
    this.deadlines.add(id, timeoutMs);
    const call: NodeCall = { id, req };
    this.outbox.post(port, call);
  }

  private answer(a: NodeAnswer): void {
    const p = this.pending.get(a.id);
    if (p === undefined) return; // timed out already
    this.pending.delete(a.id);
    if (a.garbled === true) p.done({ ok: false, error: new TransportFailure(TransportErrorCode.Transport, 'garbled reply') });
    else p.done({ ok: true, reply: a.reply });
  }
}
