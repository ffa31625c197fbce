/**
 * ioredis's Cluster client (its defaults unless the engine passes options)
 * driving the same workload, observed from outside as far as it can be and
 * mapped onto the Zaris event stream:
 * - an operation = one call of the data script (`defineCommand`), op.start
 *   when it is issued, op.end when ioredis resolves or rejects it;
 * - an attempt = one write of the command to a node: each node connection's
 *   `sendCommand` is wrapped as ioredis creates it (`+node`), so the node is
 *   the one ioredis really chose (its random-node retries included);
 * - every error reply or closed connection ioredis sees on the command
 *   (its `command.reject`, wrapped after ioredis wrapped it with its
 *   redirection handling) ends that attempt with the mapped status; ASK is
 *   recorded as `attempt.ask` (ioredis follows it, as the Zaris transport does);
 * - refreshes = `refreshSlotsCache` calls (wrapped): one that finds a refresh
 *   running is `coalesced`, one that starts is `refresh.start` … `refresh.end`.
 * ioredis has no deadline and counts every redirection and error against one
 * budget (`maxRedirections`, default 16: it gives up at the 17th error), so
 * op.start's budget is maxRedirections + 1 attempts.
 */
import { Cluster, type ClusterOptions } from 'ioredis';
import type { OpRequest, OpResult } from '../../core/client/ZarisClient';
import { KvStatus, TransportErrorCode, type Outcome } from '../../core/domain/status';
import { redisSlot } from '../../core/domain/redisKeyspace';
import type { TelemetrySink } from '../../core/telemetry/events';
import type { Scheduler } from '../../core/time/scheduler';
import { DATA_SCRIPT, parseScriptReply, scriptArgs } from './dataScript';
import type { EngineClient } from './engineClient';
import type { NodeDirectory } from './nodeDirectory';
import { RespError, type RespValue } from './resp';
import { statusOfError } from './statusMapping';

interface Tracked {
  readonly op: number;
  readonly segment: number;
  readonly startedAt: number;
  attempt: number;
  attemptStartedAt: number;
  attemptNode: number | null;
  /** an ASK (or ioredis's EVALSHA → EVAL fallback) is being followed: the next send is the same attempt */
  asking: boolean;
  /** an attempt.start without its attempt.end yet */
  open: boolean;
}

/** the minimal view of ioredis internals this adapter wraps (not in its public types) */
interface CommandLike {
  name: string;
  args: unknown[];
  reject: (err: Error) => void;
}
interface ClusterInternals {
  sendCommand(command: CommandLike, stream?: unknown, node?: unknown): unknown;
  refreshSlotsCache(callback?: (err?: Error) => void): void;
  isRefreshing: boolean;
}
interface NodeRedis {
  options: { port: number };
  sendCommand(command: CommandLike, stream?: unknown): unknown;
}

/** an ioredis error → the outcome it stands for in the Zaris vocabulary */
export function outcomeOfIoredisError(err: Error): Outcome {
  const status = statusOfError(new RespError(err.message));
  if (status !== null) return status;
  const m = err.message;
  if (m.startsWith('Too many Cluster redirections')) {
    const last = m.replace(/^Too many Cluster redirections\. Last error: (Error: |ReplyError: )?/, '');
    return last === m ? TransportErrorCode.Transport : outcomeOfIoredisError(new Error(last));
  }
  if (/Connection is closed|ECONNRESET|EPIPE|Stream isn't writeable/i.test(m)) return TransportErrorCode.Socket;
  if (/ECONNREFUSED/.test(m)) return TransportErrorCode.NodeUnavailable;
  if (/timed? ?out/i.test(m)) return TransportErrorCode.Timeout;
  return 'NonRetryable';
}

export interface IoredisClientOptions {
  readonly directory: NodeDirectory;
  readonly scheduler: Scheduler;
  readonly seedNodes: readonly number[];
  /** ioredis Cluster options (default: ioredis's own defaults) */
  readonly clusterOptions?: ClusterOptions;
}

export function createIoredisEngineClient(o: IoredisClientOptions): EngineClient {
  const startup = o.seedNodes.map((id) => ({ host: o.directory.host, port: o.directory.portOf(id) as number }));
  const cluster = new Cluster(startup, { ...o.clusterOptions, scripts: { zaris: { lua: DATA_SCRIPT, numberOfKeys: 1 } } });
  const internals = cluster as unknown as ClusterInternals;
  const counters = { redirectionsMoved: 0, asks: 0, tryAgain: 0, clusterDown: 0, connectionErrors: 0, appErrors: 0, refreshCalls: 0 };
  const appErrorsByMessage = new Map<string, number>();
  let sink: TelemetrySink | undefined;
  let nextOp = 1;
  let nextRefresh = 1;
  let lastCause: Outcome | 'connect' = 'connect';
  const byOp = new Map<number, Tracked>();
  const now = (): number => o.scheduler.now();
  const opOfCommand = (c: CommandLike): Tracked | undefined => {
    if (c.name !== 'evalsha' && c.name !== 'eval' && c.name !== 'zaris') return undefined;
    const id = Number(c.args[c.args.length - 1]);
    return byOp.get(id);
  };

  // Attempts: every write of one of our commands to a node connection.
  cluster.on('+node', (redis: NodeRedis) => {
    const orig = redis.sendCommand.bind(redis);
    redis.sendCommand = (command, stream) => {
      const t = opOfCommand(command);
      if (t !== undefined) {
        const node = o.directory.idOf(redis.options.port);
        if (t.asking) t.asking = false;
        else if (t.open && t.attemptNode === node) {
          // the node connection's own offline queue flushing the same write: still the same attempt
        } else {
          if (t.open) t.attempt++; // a resend without an error we saw (e.g. a retry ioredis queued)
          t.open = true;
          t.attemptStartedAt = now();
          t.attemptNode = node;
          sink?.emit({ t: t.attemptStartedAt, type: 'attempt.start', op: t.op, attempt: t.attempt, node, epoch: 0 });
        }
      }
      return orig(command, stream);
    };
  });

  // Attempt ends: every error ioredis handles for one of our commands.
  const origSend = internals.sendCommand.bind(cluster);
  const wrapped = new WeakSet<CommandLike>();
  internals.sendCommand = (command, stream, node) => {
    const result = origSend(command, stream, node);
    const t = opOfCommand(command);
    // ioredis calls this again for commands it queued while not ready: wrap once
    if (t !== undefined && !wrapped.has(command)) {
      wrapped.add(command);
      const handled = command.reject;
      command.reject = (err: Error) => {
        const outcome = outcomeOfIoredisError(err);
        const code = err.message.split(' ')[0];
        if (code === 'NOSCRIPT') {
          t.asking = true; // ioredis resends as EVAL: the same attempt
        } else if (code === 'ASK') {
          counters.asks++;
          const port = Number(/:(\d+)$/.exec(err.message)?.[1] ?? 0);
          t.asking = true;
          sink?.emit({ t: now(), type: 'attempt.ask', op: t.op, node: t.attemptNode ?? 0, to: o.directory.idOf(port), segment: t.segment });
        } else if (!err.message.startsWith('Too many Cluster redirections')) {
          if (code === 'MOVED') counters.redirectionsMoved++;
          else if (code === 'TRYAGAIN') counters.tryAgain++;
          else if (code === 'CLUSTERDOWN') counters.clusterDown++;
          else counters.connectionErrors++;
          const e = now();
          const isStatus = (Object.values(KvStatus) as string[]).includes(outcome);
          sink?.emit(
            isStatus
              ? { t: e, type: 'attempt.end', op: t.op, attempt: t.attempt, node: t.attemptNode, status: outcome as KvStatus, latencyMs: e - t.attemptStartedAt }
              : { t: e, type: 'attempt.end', op: t.op, attempt: t.attempt, node: t.attemptNode, error: outcome as TransportErrorCode, latencyMs: e - t.attemptStartedAt },
          );
          if (t.open) {
            t.open = false;
            t.attempt++;
          }
          lastCause = outcome;
        }
        handled(err);
      };
    }
    return result;
  };

  // Refreshes.
  const origRefresh = internals.refreshSlotsCache.bind(cluster);
  internals.refreshSlotsCache = (callback) => {
    counters.refreshCalls++;
    const t0 = now();
    sink?.emit({ t: t0, type: 'refresh.request', op: null, cause: lastCause });
    if (internals.isRefreshing) {
      sink?.emit({ t: t0, type: 'refresh.coalesced', op: null, refresh: nextRefresh - 1 });
      origRefresh(callback);
      return;
    }
    const id = nextRefresh++;
    sink?.emit({ t: t0, type: 'refresh.start', refresh: id, op: null });
    origRefresh((err) => {
      sink?.emit({ t: now(), type: 'refresh.end', refresh: id, ok: err === undefined || err === null, epochBefore: 0, epochAfter: 0, node: null, fetches: 1 });
      callback?.(err);
    });
  };

  const execute = (request: OpRequest, done: (r: OpResult) => void): number => {
    const op = nextOp++;
    const t: Tracked = { op, segment: redisSlot(request.key), startedAt: now(), attempt: 1, attemptStartedAt: now(), attemptNode: null, asking: false, open: false };
    byOp.set(op, t);
    const s = sink;
    s?.emit({
      t: t.startedAt,
      type: 'op.start',
      op,
      kind: request.kind,
      key: request.key,
      segment: t.segment,
      deadline: null,
      // ioredis gives up at the 17th error with maxRedirections 16: the first try plus 16 retries
      budget: (o.clusterOptions?.maxRedirections ?? 16) + 1,
      ...(request.cond !== undefined ? { cond: request.cond } : {}),
      ...(request.vu !== undefined ? { vu: request.vu } : {}),
    });
    const args = scriptArgs({ ...request, op });
    const finish = (result: { status?: KvStatus; value?: string; version?: number; error?: Outcome; cause?: unknown }): void => {
      byOp.delete(op);
      const e = now();
      const latencyMs = e - t.startedAt;
      // attempts started: the open one counts, a closed one was already counted by the increment
      const attempts = t.open ? t.attempt : t.attempt - 1;
      const endOpen = t.open;
      t.open = false;
      if (result.status !== undefined) {
        if (endOpen) sink?.emit({ t: e, type: 'attempt.end', op, attempt: t.attempt, node: t.attemptNode, status: result.status, latencyMs: e - t.attemptStartedAt });
        const reason = result.status === KvStatus.Ok ? 'success' : result.status === KvStatus.NotFound || result.status === KvStatus.Conflict ? 'realAnswer' : 'attemptsExhausted';
        sink?.emit({ t: e, type: 'op.end', op, status: result.status, attempts, latencyMs, reason, ...(result.version !== undefined ? { version: result.version } : {}) });
        done({ op, status: result.status, attempts, latencyMs, reason, ...(result.value !== undefined ? { value: result.value } : {}), ...(result.version !== undefined ? { version: result.version } : {}) });
        return;
      }
      const error = (result.error ?? 'NonRetryable') as TransportErrorCode | 'NonRetryable';
      if (endOpen) sink?.emit({ t: e, type: 'attempt.end', op, attempt: t.attempt, node: t.attemptNode, error, latencyMs: e - t.attemptStartedAt });
      const reason = error === 'NonRetryable' ? 'nonRetryable' : 'attemptsExhausted';
      sink?.emit({ t: e, type: 'op.end', op, error, attempts, latencyMs, reason });
      done({ op, error, attempts, latencyMs, reason, cause: result.cause });
    };
    (cluster as unknown as { zaris(key: string, ...args: (string | number)[]): Promise<RespValue> })
      .zaris(request.key, ...args)
      .then((v) => {
        const reply = parseScriptReply(v);
        finish(reply === null ? { error: 'NonRetryable', cause: new Error('unexpected reply') } : reply);
      })
      .catch((err: Error) => {
        counters.appErrors++;
        const msg = err.message.replace(/\d+\.\d+\.\d+\.\d+:\d+/g, 'host:port').replace(/ \d+ /g, ' N ').slice(0, 120);
        appErrorsByMessage.set(msg, (appErrorsByMessage.get(msg) ?? 0) + 1);
        const outcome = outcomeOfIoredisError(err);
        const isStatus = (Object.values(KvStatus) as string[]).includes(outcome);
        finish(isStatus ? { status: outcome as KvStatus } : { error: outcome, cause: err });
      });
    return op;
  };

  return {
    kind: 'ioredis',
    execute,
    connect: () =>
      new Promise((resolve, reject) => {
        if (cluster.status === 'ready') return resolve();
        cluster.once('ready', () => resolve());
        cluster.once('error', (e: Error) => reject(e));
      }),
    setSink(s) {
      sink = s;
    },
    notes() {
      const top = [...appErrorsByMessage.entries()].sort((a, b) => b[1] - a[1]).slice(0, 3);
      return { ...(o.clusterOptions !== undefined ? { options: JSON.stringify(o.clusterOptions) } : {}), ...counters, ...Object.fromEntries(top.map(([m, n], i) => [`appError${i + 1}`, `${n}× ${m}`])) };
    },
    async close() {
      cluster.disconnect();
    },
  };
}
