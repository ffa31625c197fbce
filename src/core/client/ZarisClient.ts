import { emptyMap, NO_OWNER, type ClusterMap, type NodeId } from '../domain/clusterMap';
import type { DataRequest, OpKind, WriteCondition } from '../domain/protocol';
import type { Keyspace } from '../domain/keyspace';
import { segmentOf } from '../domain/segment';
import type { KvStatus} from '../domain/status';
import { TransportErrorCode, type OpErrorCode } from '../domain/status';
import { asOpEventSink, newAttemptEnd, newAttemptStart, newOpEnd, newOpStart, OpEventScratch, type EndReason, type OpEventSink, type TelemetrySink } from '../telemetry/events';
import type { Scheduler } from '../time/scheduler';
import { attemptBudget, DEFAULT_CLIENT_CONFIG, type ClientConfig } from './config';
import { MapRefresher } from './mapRefresher';
import {
  attemptTimeout,
  backoffDelay,
  decideAfterAttempt,
  exhaustedReason,
  mayAttempt,
  operationDeadline,
  retriesAfterAttempt,
  type AttemptResult,
} from './retryPolicy';
import { errorCodeOf, type Transport, type TransportOutcome } from './transport';

/** What the caller gets back: a typed status (and the value/version, if any). */
export interface KvResult {
  readonly status: KvStatus;
  readonly value?: string;
  readonly version?: number;
}

/** An operation failed with an error (a transport failure or a non-retryable exception). */
export class ZarisError extends Error {
  constructor(
    readonly code: OpErrorCode,
    readonly attempts: number,
    override readonly cause?: unknown,
  ) {
    super(`${code} after ${attempts} attempt(s)`);
    this.name = 'ZarisError';
  }
}

/** One operation as the callback API takes it. */
export interface OpRequest {
  readonly kind: OpKind;
  readonly key: string;
  readonly value?: string;
  readonly cond?: WriteCondition;
  /** caller lane for telemetry (e.g. the virtual user) */
  readonly vu?: number;
}

/** Everything known about a finished operation. */
export interface OpResult {
  readonly op: number;
  readonly status?: KvStatus;
  readonly error?: OpErrorCode;
  readonly value?: string;
  readonly version?: number;
  readonly attempts: number;
  readonly latencyMs: number;
  readonly reason: EndReason;
  /** the non-retryable exception, when reason is `nonRetryable` */
  readonly cause?: unknown;
}

export interface ZarisClientOptions {
  readonly scheduler: Scheduler;
  readonly transport: Transport;
  /** nodes to fetch the first map from */
  readonly seedNodes: readonly NodeId[];
  /** segment count until the first map says otherwise */
  readonly segmentCount: number;
  readonly config?: ClientConfig;
  readonly sink?: TelemetrySink;
  /** a map to start from (else nothing is routable until the first refresh) */
  readonly initialMap?: ClusterMap;
  /**
   * key → segment of the engine behind the transport (Redis: CRC16 slots);
   * default: the simulation's FNV-1a over the map's segment count
   */
  readonly keyspace?: Keyspace;
}

/**
 * The Zaris client: routes each operation by its cached cluster map and runs
 * it through the retry brain (`retryPolicy.ts`) and the coalesced map refresh
 * (`mapRefresher.ts`). Time, transport and telemetry are injected; it does not
 * know whether it talks to a simulation, workers or a real cluster.
 */
export class ZarisClient {
  private cfg: ClientConfig;
  private clusterMap: ClusterMap;
  private nextOp = 1;
  private readonly refresher: MapRefresher;
  private readonly scheduler: Scheduler;
  private readonly transport: Transport;
  private readonly seedNodes: readonly NodeId[];
  private readonly keyspace: Keyspace | undefined;
  private readonly env: { readonly scheduler: Scheduler; readonly transport: Transport; readonly refresher: MapRefresher };
  private sinkNow: TelemetrySink | undefined;
  /** the same sink, taking the per-operation events by method (no switch on the type per event) */
  private opSinkNow: OpEventSink | undefined;
  /** reused per-operation events, while the sink is transient (else each event is a new object) */
  private scratch: OpEventScratch | null = null;

  constructor(options: ZarisClientOptions) {
    this.scheduler = options.scheduler;
    this.transport = options.transport;
    this.seedNodes = options.seedNodes;
    this.keyspace = options.keyspace;
    this.cfg = options.config ?? DEFAULT_CLIENT_CONFIG;
    this.sink = options.sink;
    this.clusterMap = options.initialMap ?? emptyMap(options.segmentCount, options.seedNodes);
    this.refresher = new MapRefresher({
      scheduler: this.scheduler,
      transport: this.transport,
      sink: () => this.sink,
      config: () => this.cfg,
      currentMap: () => this.clusterMap,
      adoptMap: (map) => {
        this.clusterMap = map;
      },
      fetchCandidates: () => this.fetchCandidates(),
    });
    this.env = { scheduler: this.scheduler, transport: this.transport, refresher: this.refresher };
  }

  /** the telemetry sink; undefined means no event is even built */
  get sink(): TelemetrySink | undefined {
    return this.sinkNow;
  }
  set sink(s: TelemetrySink | undefined) {
    this.sinkNow = s;
    this.opSinkNow = s === undefined ? undefined : asOpEventSink(s);
    this.scratch = this.opSinkNow?.transient === true ? (this.scratch ?? new OpEventScratch()) : null;
  }

  /** @internal used by OperationRun: {@link sink} for the per-operation events */
  get _opSink(): OpEventSink | undefined {
    return this.opSinkNow;
  }
  /** @internal the events to refill for a transient sink (null: build new ones) */
  get _scratch(): OpEventScratch | null {
    return this.scratch;
  }

  /** the configuration new operations use */
  get config(): ClientConfig {
    return this.cfg;
  }

  /** applies to operations started from now on (and to refreshes) */
  configure(config: ClientConfig): void {
    this.cfg = config;
  }

  /** the client's cached cluster map (may be stale) */
  get map(): ClusterMap {
    return this.clusterMap;
  }

  /** the refresh machinery, for inspection in tests and panels */
  get refreshes(): MapRefresher {
    return this.refresher;
  }

  /** fetches the first map (or refreshes it); calls back with whether a map was fetched */
  connect(done: (ok: boolean) => void = () => {}): void {
    this.refresher.request(null, 'connect', (o) => done(o === 'refreshed'));
  }

  get(key: string): Promise<KvResult> {
    return this.promise({ kind: 'get', key });
  }

  put(key: string, value: string, cond?: WriteCondition): Promise<KvResult> {
    return this.promise(cond === undefined ? { kind: 'put', key, value } : { kind: 'put', key, value, cond });
  }

  delete(key: string, cond?: WriteCondition): Promise<KvResult> {
    return this.promise(cond === undefined ? { kind: 'delete', key } : { kind: 'delete', key, cond });
  }

  private promise(request: OpRequest): Promise<KvResult> {
    return new Promise((resolve, reject) => {
      this.execute(request, (r) => {
        if (r.status !== undefined) {
          resolve({ status: r.status, ...(r.value !== undefined ? { value: r.value } : {}), ...(r.version !== undefined ? { version: r.version } : {}) });
        } else if (r.reason === 'nonRetryable' && r.cause !== undefined) {
          reject(r.cause);
        } else {
          reject(new ZarisError(r.error ?? TransportErrorCode.Timeout, r.attempts, r.cause));
        }
      });
    });
  }

  /** The callback API: runs one operation to its end; returns its op id. */
  execute(request: OpRequest, done: (result: OpResult) => void): number {
    const op = this.nextOp++;
    new OperationRun(this, op, request, done).begin();
    return op;
  }

  private fetchCandidates(): readonly NodeId[] {
    const nodes = this.clusterMap.nodes;
    if (this.seedNodes.every((n) => nodes.includes(n))) return nodes;
    return [...new Set([...nodes, ...this.seedNodes])].sort((a, b) => a - b);
  }

  /** @internal used by OperationRun: the node the cached map routes `segment` to (null: no owner) */
  _owner(segment: number): NodeId | null {
    const owner = this.clusterMap.owners[segment];
    return owner === undefined || owner === NO_OWNER ? null : owner;
  }
  /** @internal */
  _segmentOf(key: string): number {
    return this.keyspace !== undefined ? this.keyspace.segmentOf(key) : segmentOf(key, this.clusterMap.owners.length);
  }
  /** @internal the client's collaborators (one object for the client's lifetime) */
  _env(): { readonly scheduler: Scheduler; readonly transport: Transport; readonly refresher: MapRefresher } {
    return this.env;
  }
}

/** The retry loop of one operation, as a small state machine (no promises inside the core). */
class OperationRun {
  private readonly config: ClientConfig;
  private readonly startedAt: number;
  private readonly deadline: number | null;
  private readonly segment: number;
  private attempt = 1;
  /** attempts actually started */
  private attemptsMade = 0;
  private last: AttemptResult | null = null;
  /** ms, when the last attempt ended */
  private lastEndedAt = 0;
  /** the deadline passed while this op waited for a map refresh */
  private deadlinePassedInRefreshWait = false;
  /** ms, when the last attempt began */
  private attemptStartedAt = 0;

  constructor(
    private readonly client: ZarisClient,
    private readonly op: number,
    private readonly request: OpRequest,
    private readonly done: (result: OpResult) => void,
  ) {
    const { scheduler } = client._env();
    this.config = client.config;
    this.startedAt = scheduler.now();
    this.deadline = operationDeadline(this.startedAt, this.config);
    this.segment = client._segmentOf(request.key);
  }

  begin(): void {
    const sink = this.client._opSink;
    if (sink) {
      const r = this.request;
      // (a new event, or the scratch one refilled: every field is set)
      const e = this.client._scratch?.opStart ?? newOpStart();
      e.t = this.startedAt;
      e.op = this.op;
      e.kind = r.kind;
      e.key = r.key;
      e.segment = this.segment;
      e.deadline = this.deadline;
      e.budget = attemptBudget(this.config);
      e.cond = r.cond;
      e.vu = r.vu;
      sink.opStart(e);
    }
    this.loop();
  }

  /** `for (attempt = 1; attempt <= maxAttempts && (no deadline || now < deadline); attempt++)` */
  private loop(): void {
    const { scheduler, transport } = this.client._env();
    const now = scheduler.now();
    if (!mayAttempt(this.attempt, now, this.deadline, this.config)) {
      this.endExhausted();
      return;
    }
    const node = this.client._owner(this.segment);
    const epoch = this.client.map.epoch;
    const attempt = this.attempt;
    this.attemptsMade = attempt;
    this.attemptStartedAt = now;
    const sink = this.client._opSink;
    if (sink) {
      const e = this.client._scratch?.attemptStart ?? newAttemptStart();
      e.t = now;
      e.op = this.op;
      e.attempt = attempt;
      e.node = node;
      e.epoch = epoch;
      sink.attemptStart(e);
    }
    if (node === null) {
      // No owner in the client's map: raised locally, no request is sent.
      this.onAttemptEnd(attempt, null, now, { error: TransportErrorCode.PartitionUnavailable });
      return;
    }
    const r = this.request;
    const wire: DataRequest = { type: 'data', kind: r.kind, key: r.key, segment: this.segment, epoch, op: this.op, value: r.value, cond: r.cond };
    let answered = false;
    const onOutcome = (outcome: TransportOutcome) => {
      if (answered) return;
      answered = true;
      let result: AttemptResult;
      if (outcome.ok) {
        const reply = outcome.reply;
        result = 'map' in reply ? { error: 'NonRetryable', cause: new Error('map reply to a data request') } : reply;
      } else {
        result = { error: errorCodeOf(outcome.error), cause: outcome.error };
      }
      this.onAttemptEnd(attempt, node, now, result);
    };
    try {
      transport.send(node, wire, attemptTimeout(now, this.deadline, this.config), onOutcome);
    } catch (error) {
      onOutcome({ ok: false, error });
    }
  }

  private onAttemptEnd(attempt: number, node: NodeId | null, sentAt: number, result: AttemptResult): void {
    const { scheduler, refresher } = this.client._env();
    const now = scheduler.now();
    this.last = result;
    this.lastEndedAt = now;
    const sink = this.client._opSink;
    if (sink) {
      const e = this.client._scratch?.attemptEnd ?? newAttemptEnd();
      e.t = now;
      e.op = this.op;
      e.attempt = attempt;
      e.node = node;
      e.status = result.status;
      e.error = result.error;
      e.latencyMs = now - sentAt;
      sink.attemptEnd(e);
    }
    const decision = decideAfterAttempt(result, this.config.bugs);
    if (decision.kind === 'return') {
      this.end(result, decision.reason);
      return;
    }
    // The refresh comes first, even after the final attempt; only the sleep is skipped then.
    if (decision.refreshFirst) {
      refresher.request(this.op, result.error ?? result.status, () => {
        // (a deadline that had passed before the wait began — the final attempt's own timeout — does not count)
        if (this.deadline !== null && now < this.deadline && scheduler.now() >= this.deadline) this.deadlinePassedInRefreshWait = true;
        this.retryOrStop(attempt, result);
      });
    } else {
      this.retryOrStop(attempt, result);
    }
  }

  /** the loop condition, tested after the refresh: back off and retry, or end with the last result */
  private retryOrStop(attempt: number, result: AttemptResult): void {
    const now = this.client._env().scheduler.now();
    if (retriesAfterAttempt(attempt, now, this.deadline, this.config)) this.backoff(attempt, result);
    else this.endExhausted();
  }

  private backoff(attempt: number, result: AttemptResult): void {
    const { scheduler } = this.client._env();
    const now = scheduler.now();
    const delayMs = backoffDelay(attempt, result.status, now, this.deadline, this.config, this.attemptStartedAt);
    this.client.sink?.emit({ t: now, type: 'backoff', op: this.op, attempt, delayMs, status: result.status, error: result.error });
    scheduler.setTimer(delayMs, () => {
      this.attempt = attempt + 1;
      this.loop();
    });
  }

  /** the loop condition failed: return the last result, or Timeout if no attempt ran */
  private endExhausted(): void {
    const { scheduler } = this.client._env();
    const last = this.last;
    if (last === null) {
      this.end({ error: TransportErrorCode.Timeout }, 'deadline');
      return;
    }
    this.end(last, exhaustedReason(this.attemptsMade, this.lastEndedAt, scheduler.now(), this.deadline, this.deadlinePassedInRefreshWait, this.config));
  }

  private end(result: AttemptResult, reason: EndReason): void {
    const { scheduler } = this.client._env();
    const now = scheduler.now();
    const latencyMs = now - this.startedAt;
    const attempts = this.attemptsMade;
    const sink = this.client._opSink;
    if (sink) {
      const e = this.client._scratch?.opEnd ?? newOpEnd();
      e.t = now;
      e.op = this.op;
      e.status = result.status;
      e.error = result.error;
      e.attempts = attempts;
      e.latencyMs = latencyMs;
      e.reason = reason;
      e.version = result.error === undefined ? result.version : undefined;
      sink.opEnd(e);
    }
    const error = result.error;
    if (error !== undefined) {
      this.done({ op: this.op, error, cause: result.cause, attempts, latencyMs, reason });
      return;
    }
    const { status, version, value } = result;
    this.done({ op: this.op, status, value, version, attempts, latencyMs, reason });
  }
}
