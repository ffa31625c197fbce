/**
 * The Zaris client's {@link Transport} on a real Redis Cluster: one
 * pipelined RESP connection per node, a data request = one EVAL of the
 * versioned-value script (`dataScript.ts`), a map request = `CLUSTER NODES`.
 * Error replies map to statuses (`statusMapping.ts`); ASK is followed inside
 * the attempt (ASKING + the request on the named node) and reported as an
 * `attempt.ask` event; with `waitReplicas` > 0 every write is followed by
 * `WAIT n timeout` and acknowledged only if n replicas have it.
 */
import { TransportFailure, type Transport, type TransportOutcome } from '../../core/client/transport';
import type { NodeId } from '../../core/domain/clusterMap';
import type { DataRequest, NodeRequest } from '../../core/domain/protocol';
import { KvStatus, TransportErrorCode } from '../../core/domain/status';
import type { TelemetrySink } from '../../core/telemetry/events';
import type { Scheduler } from '../../core/time/scheduler';
import { parseClusterNodes, toClusterMap } from './clusterNodes';
import { RedisConnection, type RequestDeadlines, type RespCommand } from './connection';
import { evalCommand, parseScriptReply } from './dataScript';
import type { NodeDirectory } from './nodeDirectory';
import { RespError, type RespValue } from './resp';
import { redirectTarget, statusOfError } from './statusMapping';

export interface RespTransportOptions {
  readonly directory: NodeDirectory;
  readonly deadlines: RequestDeadlines;
  /** the run's clock (event times) */
  readonly scheduler: Scheduler;
  /** where `attempt.ask` events go */
  readonly sink?: () => TelemetrySink | undefined;
  /** replicas a write must reach before it is acknowledged (0: Redis's asynchronous default) */
  readonly waitReplicas?: number;
  /** WAIT's own timeout, ms */
  readonly waitTimeoutMs?: number;
}

export class RespTransport implements Transport {
  private readonly conns = new Map<NodeId, RedisConnection>();
  private closed = false;
  /** ASK redirections followed */
  asks = 0;

  constructor(private readonly o: RespTransportOptions) {}

  send(node: NodeId, request: NodeRequest, timeoutMs: number, done: (outcome: TransportOutcome) => void): void {
    const conn = this.connection(node);
    if (conn === null) {
      done({ ok: false, error: new TransportFailure(TransportErrorCode.NodeUnavailable, `node ${node} has no address`) });
      return;
    }
    if (request.type === 'map') {
      conn.send([['CLUSTER', 'NODES']], timeoutMs, (err, replies) => {
        if (err) return done({ ok: false, error: err });
        const v = replies[0];
        if (typeof v !== 'string') return done({ ok: false, error: new Error(`CLUSTER NODES: ${v instanceof RespError ? v.message : 'unexpected reply'}`) });
        try {
          done({ ok: true, reply: { status: 'Ok', map: toClusterMap(parseClusterNodes(v), (p) => this.o.directory.idOf(p)) } });
        } catch (e) {
          done({ ok: false, error: e });
        }
      });
      return;
    }
    const sentAt = this.o.scheduler.now();
    conn.send(this.commands(request, false), timeoutMs, (err, replies) => {
      if (err) return done({ ok: false, error: err });
      const first = replies[0] as RespValue;
      if (first instanceof RespError && first.code === 'ASK') {
        this.followAsk(node, request, first, timeoutMs - (this.o.scheduler.now() - sentAt), done);
        return;
      }
      done(this.outcome(request, first, replies[1]));
    });
  }

  private commands(request: DataRequest, asking: boolean): RespCommand[] {
    const cmds: RespCommand[] = asking ? [['ASKING'], evalCommand(request)] : [evalCommand(request)];
    const n = this.o.waitReplicas ?? 0;
    if (n > 0 && request.kind !== 'get') cmds.push(['WAIT', n, this.o.waitTimeoutMs ?? 1_000]);
    return cmds;
  }

  private followAsk(from: NodeId, request: DataRequest, ask: RespError, remainingMs: number, done: (outcome: TransportOutcome) => void): void {
    const target = redirectTarget(ask);
    if (target === null) return done({ ok: false, error: new Error(`unreadable redirection: ${ask.message}`) });
    const to = this.o.directory.idOf(target.port);
    this.asks++;
    this.o.sink?.()?.emit({ t: this.o.scheduler.now(), type: 'attempt.ask', op: request.op, node: from, to, segment: request.segment });
    const conn = this.connection(to);
    if (conn === null || remainingMs <= 0) {
      done({ ok: false, error: new TransportFailure(conn === null ? TransportErrorCode.NodeUnavailable : TransportErrorCode.Timeout, 'ASK target') });
      return;
    }
    conn.send(this.commands(request, true), remainingMs, (err, replies) => {
      if (err) return done({ ok: false, error: err });
      const answer = replies[1] as RespValue;
      // A second redirection inside one attempt: the migration moved on; let the brain refresh.
      if (answer instanceof RespError && answer.code === 'ASK') return done({ ok: true, reply: { status: KvStatus.Moved } });
      done(this.outcome(request, answer, replies[2]));
    });
  }

  /** one script reply (and the WAIT count after a write) → the attempt's outcome */
  private outcome(request: DataRequest, v: RespValue, waited: RespValue | undefined): TransportOutcome {
    if (v instanceof RespError) {
      const status = statusOfError(v);
      return status !== null ? { ok: true, reply: { status } } : { ok: false, error: new Error(`redis: ${v.message}`) };
    }
    const reply = parseScriptReply(v);
    if (reply === null) return { ok: false, error: new Error('redis: unexpected reply to the data script') };
    const need = this.o.waitReplicas ?? 0;
    if (need > 0 && request.kind !== 'get' && reply.status === KvStatus.Ok) {
      const got = typeof waited === 'number' ? waited : 0;
      // Applied on the master but not yet on enough replicas: the client cannot know it is durable.
      if (got < need) return { ok: false, error: new TransportFailure(TransportErrorCode.Timeout, `WAIT: ${got} of ${need} replica(s) acknowledged`) };
    }
    return { ok: true, reply };
  }

  private connection(node: NodeId): RedisConnection | null {
    if (this.closed) return null;
    const existing = this.conns.get(node);
    if (existing !== undefined && existing.usable) return existing;
    const port = this.o.directory.portOf(node);
    if (port === undefined) return null;
    const conn = new RedisConnection(this.o.directory.host, port, this.o.deadlines, (c) => {
      if (this.conns.get(node) === c) this.conns.delete(node);
    });
    this.conns.set(node, conn);
    return conn;
  }

  close(): void {
    this.closed = true;
    for (const c of this.conns.values()) c.close();
    this.conns.clear();
  }
}
