/**
 * One pipelined RESP connection to one Redis node, with the failures the
 * Zaris client's vocabulary knows: a refused or failed connect is
 * `NodeUnavailable`, a connection that closes or resets with requests in
 * flight fails them with `Socket`, a request without an answer in time is
 * `Timeout` (its reply, if it ever comes, is matched in FIFO order and
 * dropped). A closed connection stays closed; the pool opens a new one.
 */
import { connect, type Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { TransportFailure } from '../../core/client/transport';
import { TransportErrorCode } from '../../core/domain/status';
import { DeadlineTimers } from '../../platform/deadlineTimers';
import { encodeCommand, RespParser, RespProtocolError, type RespValue } from './resp';

export type RespCommand = readonly (string | number)[];
/** replies of one `send` (one per command), or the transport failure */
export type ReplyCallback = (error: TransportFailure | null, replies: readonly RespValue[]) => void;

interface Pending {
  readonly id: number;
  /** replies still to come for this request */
  remaining: number;
  readonly replies: RespValue[];
  readonly cb: ReplyCallback;
  settled: boolean;
}

/** Deadlines of every request on every connection, on one real timer. */
export class RequestDeadlines {
  private nextId = 1;
  private readonly live = new Map<number, Pending>();
  private readonly timers = new DeadlineTimers(
    () => performance.now(),
    (id) => {
      const p = this.live.get(id);
      this.live.delete(id);
      if (p !== undefined && !p.settled) {
        p.settled = true;
        p.cb(new TransportFailure(TransportErrorCode.Timeout, 'no reply in time'), []);
      }
    },
    (id) => this.live.has(id),
    () => this.live.size,
  );

  /** @internal a new pending entry with its deadline */
  track(remaining: number, timeoutMs: number, cb: ReplyCallback): Pending {
    const p: Pending = { id: this.nextId++, remaining, replies: [], cb, settled: false };
    this.live.set(p.id, p);
    this.timers.add(p.id, timeoutMs);
    return p;
  }

  /** @internal */
  forget(p: Pending): void {
    this.live.delete(p.id);
  }

  /** drops every deadline (the engine stops) */
  clear(): void {
    this.live.clear();
    this.timers.clear();
  }
}

export class RedisConnection {
  private readonly socket: Socket;
  private readonly parser = new RespParser();
  private readonly queue: Pending[] = [];
  private head = 0;
  private open = false;
  private closedWith: TransportFailure | null = null;
  /** commands written before the connect completed */
  private backlog: Buffer[] = [];

  constructor(
    readonly host: string,
    readonly port: number,
    private readonly deadlines: RequestDeadlines,
    private readonly onClose: (conn: RedisConnection) => void = () => {},
  ) {
    const socket = connect({ host, port, noDelay: true });
    this.socket = socket;
    socket.on('connect', () => {
      this.open = true;
      if (this.backlog.length > 0) socket.write(this.backlog.length === 1 ? (this.backlog[0] as Buffer) : Buffer.concat(this.backlog));
      this.backlog = [];
    });
    socket.on('data', (chunk) => {
      try {
        this.parser.feed(chunk, (v) => this.onReply(v));
      } catch (e) {
        const detail = e instanceof RespProtocolError ? `protocol error: ${e.message}` : String(e);
        this.fail(new TransportFailure(TransportErrorCode.Socket, detail));
        socket.destroy();
      }
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      // Never connected: the node is not there (refused, unreachable). Else the link broke.
      const code = !this.open ? TransportErrorCode.NodeUnavailable : TransportErrorCode.Socket;
      this.fail(new TransportFailure(code, e.code ?? e.message));
    });
    socket.on('close', () => this.fail(new TransportFailure(this.open ? TransportErrorCode.Socket : TransportErrorCode.NodeUnavailable, 'connection closed')));
  }

  /** false once the socket closed or failed (the pool replaces it) */
  get usable(): boolean {
    return this.closedWith === null;
  }

  /** pipelines `commands`; `cb` gets all their replies, or one failure */
  send(commands: readonly RespCommand[], timeoutMs: number, cb: ReplyCallback): void {
    if (this.closedWith !== null) {
      cb(this.closedWith, []);
      return;
    }
    const p = this.deadlines.track(commands.length, timeoutMs, cb);
    this.queue.push(p);
    const bytes = commands.length === 1 ? encodeCommand(commands[0] as RespCommand) : Buffer.concat(commands.map(encodeCommand));
    if (this.open) this.socket.write(bytes);
    else this.backlog.push(bytes);
  }

  /** one command, as a promise (admin use: bootstrap, faults, read-back) */
  call(command: RespCommand, timeoutMs = 5_000): Promise<RespValue> {
    return new Promise((resolve, reject) => {
      this.send([command], timeoutMs, (err, replies) => (err ? reject(new Error(`${command.join(' ').slice(0, 60)} on :${this.port}: ${err.code} (${err.detail ?? ''})`)) : resolve(replies[0] as RespValue)));
    });
  }

  close(): void {
    this.fail(new TransportFailure(TransportErrorCode.Socket, 'closed by the client'));
    this.socket.destroy();
  }

  private onReply(v: RespValue): void {
    const p = this.queue[this.head];
    if (p === undefined) return; // a reply nobody asked for: ignore (cannot happen with RESP2 request/reply)
    p.replies.push(v);
    if (--p.remaining > 0) return;
    this.queue[this.head++] = undefined as unknown as Pending;
    if (this.head > 1024 && this.head * 2 > this.queue.length) {
      this.queue.splice(0, this.head);
      this.head = 0;
    }
    this.deadlines.forget(p);
    if (p.settled) return; // timed out earlier: the late reply is dropped
    p.settled = true;
    p.cb(null, p.replies);
  }

  private fail(error: TransportFailure): void {
    if (this.closedWith !== null) return;
    this.closedWith = error;
    for (let i = this.head; i < this.queue.length; i++) {
      const p = this.queue[i] as Pending;
      this.deadlines.forget(p);
      if (p.settled) continue;
      p.settled = true;
      p.cb(error, []);
    }
    this.queue.length = 0;
    this.head = 0;
    this.onClose(this);
  }
}
