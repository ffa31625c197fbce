/**
 * The real engine: a scenario run for real on a Redis Cluster of this
 * machine. One module, one API, driven by the CLI (`npm run sim -- …
 * --engine redis`) and meant to be driven by the dashboard's bridge:
 *
 *   const engine = await RedisEngine.start(scenario, { client: 'zaris', sink });
 *   engine.fault({ action: 'failover', node: 1 });   // or the scenario's schedule
 *   engine.pause(); engine.resume();
 *   await engine.finished;                            // the scenario's duration
 *   const { summary } = await engine.stop();          // read-back, checker, servers stopped
 *
 * `sink` receives the same events as the simulation (SPEC §9) plus
 * `attempt.ask`; wrap it in the columnar `TelemetryBatcher` for batches.
 * `stop()` always stops every redis-server; so do exit hooks and a watchdog.
 */
import { spawnSync } from 'node:child_process';
import type { ClusterOptions } from 'ioredis';
import { mergeClientConfig } from '../../core/client/config';
import type { FaultCommand } from '../../core/cluster/faults';
import type { ClusterMap, NodeId } from '../../core/domain/clusterMap';
import { redisSlot } from '../../core/domain/redisKeyspace';
import { KvStatus } from '../../core/domain/status';
import { Rng } from '../../core/rng';
import { InvariantChecker } from '../../core/sim/invariants';
import { summarizeRun, type RealEngineSummary, type RunSummary } from '../../core/sim/runScenario';
import { bugsOnAtAnyTime, type Scenario } from '../../core/sim/scenario';
import { Workload } from '../../core/sim/workload';
import { mergeWorkload, type WorkloadConfig } from '../../core/sim/workloadConfig';
import { teeSink, type FaultAction, type TelemetrySink, type ZarisEvent } from '../../core/telemetry/events';
import { RunAggregator } from '../../core/telemetry/runAggregator';
import { ClusterMonitor } from './clusterMonitor';
import { isMaster, isMember, type NodeLine } from './clusterNodes';
import { RedisConnection, RequestDeadlines } from './connection';
import { versionOfReply } from './dataScript';
import { createZarisEngineClient, type EngineClient, type EngineClientKind } from './engineClient';
import { createIoredisEngineClient } from './ioredisClient';
import { checkRealFaults, REAL_FAULTS, type FaultContext } from './realFaults';
import { RedisCluster } from './redisCluster';
import { EngineInputError, within } from './redisServers';
import { RunClock } from './runClock';

export interface RedisEngineOptions {
  readonly client?: EngineClientKind;
  /** where the run's events go (besides the engine's own aggregator and checker) */
  readonly sink?: TelemetrySink;
  /** WAIT for this many replicas before acknowledging a write (default 0: asynchronous) */
  readonly waitReplicas?: number;
  readonly waitTimeoutMs?: number;
  /** the open-loop rate to run at, ops/s (default: the scenario's, scaled down if the machine cannot sustain it) */
  readonly rate?: number;
  /** use ports from here on instead of free ones */
  readonly basePort?: number;
  /** apply the scenario's fault schedule (default true; a live session applies faults by hand) */
  readonly scheduleFaults?: boolean;
  /** ioredis Cluster options (default: ioredis's own defaults) */
  readonly ioredisOptions?: ClusterOptions;
  /** progress lines ("cluster up", "prefill …") */
  readonly log?: (line: string) => void;
}

export interface RedisRunResult {
  readonly summary: RunSummary;
}

/** the share of the prefill's measured rate the open loop may ask for */
const HEADROOM = 0.6;
const BUCKET_MS = 100;

/** refuses what the Redis engine cannot do, before anything starts */
export function validateForRedis(scenario: Scenario, waitReplicas: number, client: EngineClientKind = 'zaris'): void {
  checkRealFaults(scenario.faults);
  if (waitReplicas > 0 && client !== 'zaris') {
    throw new EngineInputError(`--wait-replicas works with --client zaris only (ioredis's Cluster API has no per-write WAIT on the key's node)`);
  }
  if (waitReplicas > scenario.cluster.replicas) {
    throw new EngineInputError(`--wait-replicas ${waitReplicas} is more than cluster.replicas ${scenario.cluster.replicas} (allowed: 0..${scenario.cluster.replicas})`);
  }
  const joins = scenario.faults.filter((f) => f.action === 'scaleOut' && f.node !== undefined);
  if (joins.length > 0) throw new EngineInputError('faults: scaleOut on the Redis engine starts a new node; leave out "node"');
}

export class RedisEngine {
  /** resolves when the scenario's duration has passed (or stop() was called) */
  readonly finished: Promise<void>;
  private endRun!: () => void;
  private readonly aggregator = new RunAggregator(1000);
  private readonly checker: InvariantChecker;
  private readonly okBuckets: number[] = [];
  private readonly failedBuckets: number[] = [];
  private readonly repairs: { t: number; action: FaultAction; node: NodeId }[] = [];
  private readonly faultsApplied: { t: number; action: FaultAction; node: NodeId }[] = [];
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private faultChain: Promise<void> = Promise.resolve();
  private faultErrors: string[] = [];
  private faultNotes: string[] = [];
  private stopped = false;
  /** the scenario's duration passed (else stop() came early) */
  private reachedEnd = false;
  private recording = true;
  private clock!: RunClock;
  private client!: EngineClient;
  private workload!: Workload;
  private monitor!: ClusterMonitor;
  private rateNote = '';
  private runRate = 0;
  private prefill = { keys: 0, ms: 0, opsPerSec: 0 };
  private workloadConfig!: WorkloadConfig;

  private constructor(
    readonly scenario: Scenario,
    readonly cluster: RedisCluster,
    private readonly options: RedisEngineOptions,
  ) {
    const bugs = bugsOnAtAnyTime(scenario);
    this.checker = new InvariantChecker(() => ({ ...scenario.client, bugs }));
    this.finished = new Promise((r) => (this.endRun = r));
  }

  /** builds the cluster, prefills, starts the workload and the fault schedule at t = 0 */
  static async start(scenario: Scenario, options: RedisEngineOptions = {}): Promise<RedisEngine> {
    const waitReplicas = options.waitReplicas ?? 0;
    validateForRedis(scenario, waitReplicas, options.client ?? 'zaris');
    const log = options.log ?? (() => {});
    const t0 = Date.now();
    const cluster = await RedisCluster.create({
      masters: scenario.cluster.nodes,
      replicasPerMaster: scenario.cluster.replicas,
      nodeTimeoutMs: Math.max(100, Math.round(scenario.cluster.failureTimeoutMs)),
      ...(options.basePort !== undefined ? { basePort: options.basePort } : {}),
    });
    log(`cluster up: ${scenario.cluster.nodes} masters × ${scenario.cluster.replicas} replica(s) on ports ${cluster.directory.ids().map((i) => cluster.directory.portOf(i)).join(', ')} (${Date.now() - t0} ms), data in ${cluster.servers.dir}`);
    const engine = new RedisEngine(scenario, cluster, options);
    try {
      await engine.begin(log);
    } catch (e) {
      await engine.stop().catch(() => undefined);
      throw e;
    }
    return engine;
  }

  private sinkNow = (): TelemetrySink | undefined => (this.recording ? this.sink : undefined);
  private sink!: TelemetrySink;

  private makeClient(clock: RunClock): EngineClient {
    const seedNodes = this.cluster.directory.ids();
    const kind = this.options.client ?? 'zaris';
    if (kind === 'ioredis') {
      return createIoredisEngineClient({
        directory: this.cluster.directory,
        scheduler: clock,
        seedNodes,
        ...(this.options.ioredisOptions !== undefined ? { clusterOptions: this.options.ioredisOptions } : {}),
      });
    }
    return createZarisEngineClient({
      directory: this.cluster.directory,
      scheduler: clock,
      config: this.scenario.client,
      seedNodes,
      waitReplicas: this.options.waitReplicas ?? 0,
      waitTimeoutMs: this.options.waitTimeoutMs ?? 1_000,
    });
  }

  private async begin(log: (line: string) => void): Promise<void> {
    await this.runPrefill(log);
    const sc = this.scenario;
    const own: TelemetrySink = {
      emit: (e: ZarisEvent) => {
        if (e.type !== 'op.end') return;
        const i = Math.floor(e.t / BUCKET_MS);
        const ok = e.status === KvStatus.Ok || e.status === KvStatus.NotFound || e.status === KvStatus.Conflict;
        const arr = ok ? this.okBuckets : this.failedBuckets;
        while (arr.length <= i) arr.push(0);
        arr[i] = (arr[i] as number) + 1;
      },
    };
    this.sink = teeSink([this.aggregator, this.checker, own, ...(this.options.sink ? [this.options.sink] : [])]);
    // t = 0: the clock, the client's first map fetch, the workload, the schedule.
    this.clock = new RunClock();
    this.client = this.makeClient(this.clock);
    this.client.setSink(this.sinkNow());
    this.monitor = new ClusterMonitor(this.cluster, () => this.clock.now(), this.sinkNow);
    await this.monitor.start();
    this.cluster.ownNodesCalls = 0;
    const scaled = this.scaledWorkload(sc.workload);
    this.workloadConfig = scaled;
    this.workload = new Workload(scaled, this.client, this.clock, Rng.seeded(sc.seed).stream(3));
    if (this.options.scheduleFaults !== false) for (const f of sc.faults) this.later(f.atMs - this.clock.now(), () => this.fault(f));
    let clientConfig = sc.client;
    for (const c of sc.changes) {
      if (c.client !== undefined) clientConfig = mergeClientConfig(clientConfig, c.client);
      const config = clientConfig;
      this.later(c.atMs - this.clock.now(), () => {
        // The Zaris client takes new settings for new operations; ioredis has none of these knobs.
        if (c.client !== undefined) this.client.configure?.(config);
        if (c.workload !== undefined) this.workload.reconfigure(this.scaledWorkload(mergeWorkload(this.workload.config, c.workload)));
        if (c.paused === true) this.workload.pause();
        if (c.paused === false) this.workload.resume();
      });
    }
    this.later(sc.durationMs - this.clock.now(), () => {
      this.reachedEnd = true;
      this.endRun();
    });
    await this.client.connect();
    this.workload.start();
    log(`running ${sc.durationMs / 1000} s in real time with the ${this.client.kind} client${this.rateNote ? ` (${this.rateNote})` : ''}`);
  }

  /** writes every workload key once (version 1) through a throwaway client; its rate is the machine's capacity */
  private async runPrefill(log: (line: string) => void): Promise<void> {
    const keys = this.scenario.workload.keys;
    const clock = new RunClock();
    const client = this.makeClient(clock);
    await client.connect();
    const start = clock.now();
    let next = 0;
    let failed = 0;
    await new Promise<void>((resolve) => {
      let active = 0;
      const pump = (): void => {
        while (active < 64 && next < keys) {
          const key = `k${next++}`;
          active++;
          client.execute({ kind: 'put', key, value: 'p' }, (r) => {
            active--;
            if (r.status !== KvStatus.Ok) failed++;
            if (next >= keys && active === 0) resolve();
            else pump();
          });
        }
      };
      if (keys === 0) resolve();
      else pump();
    });
    const ms = clock.now() - start;
    await client.close();
    clock.stop();
    if (failed > 0) throw new Error(`prefill: ${failed} of ${keys} writes failed on a healthy cluster`);
    this.prefill = { keys, ms: Math.round(ms), opsPerSec: Math.round(keys / Math.max(ms, 1) * 1000) };
    log(`prefill: ${keys} keys in ${Math.round(ms)} ms (${this.prefill.opsPerSec} ops/s with 64 in flight)`);
  }

  /** the open-loop rate this machine can carry: the scenario's, the caller's, or HEADROOM × the prefill rate */
  private scaledWorkload(w: WorkloadConfig): WorkloadConfig {
    if (w.ratePerSec <= 0) {
      this.runRate = 0;
      return w;
    }
    let rate = w.ratePerSec;
    if (this.options.rate !== undefined) {
      rate = this.options.rate;
      this.rateNote = `rate ${w.ratePerSec} → ${rate} ops/s (--rate)`;
    } else {
      const capacity = this.prefill.opsPerSec * HEADROOM;
      if (capacity > 0 && rate > capacity) {
        rate = Math.max(1, Math.floor(capacity / 50) * 50);
        this.rateNote = `rate scaled ${w.ratePerSec} → ${rate} ops/s: this machine's prefill ran at ${this.prefill.opsPerSec} ops/s, the run asks for at most ${HEADROOM * 100} % of that`;
      }
    }
    this.runRate = rate;
    return { ...w, ratePerSec: rate };
  }

  private later(ms: number, fn: () => void): void {
    if (this.stopped) return;
    const h = setTimeout(() => {
      this.timers.delete(h);
      if (!this.stopped) fn();
    }, Math.max(0, ms));
    this.timers.add(h);
  }

  /** applies a fault now (queued behind a fault still in progress, e.g. a failback waiting for its sync) */
  fault(cmd: FaultCommand): Promise<void> {
    const real = REAL_FAULTS[cmd.action];
    if (real === undefined) return Promise.reject(new EngineInputError(`fault ${cmd.action} cannot be done on Redis`));
    const ctx: FaultContext = {
      cluster: this.cluster,
      now: () => this.clock.now(),
      sink: { emit: (e) => this.sinkNow()?.emit(e) },
      migrationHoldMs: this.scenario.cluster.migrationBaseMs,
      repaired: (action, node) => this.repairs.push({ t: this.clock.now(), action, node }),
      note: (text) => this.faultNotes.push(text),
      later: (ms, fn) => this.later(ms, fn),
    };
    const run = async (): Promise<void> => {
      if (this.stopped) return;
      const node = cmd.node ?? this.cluster.directory.nextId;
      this.faultsApplied.push({ t: this.clock.now(), action: cmd.action, node });
      await real.apply(ctx, cmd);
    };
    const p = this.faultChain.then(run).catch((e: unknown) => {
      this.faultErrors.push(`${cmd.action}: ${(e as Error).message}`);
    });
    this.faultChain = p;
    return p;
  }

  pause(): void {
    this.workload.pause();
  }

  resume(): void {
    this.workload.resume();
  }

  /** the client's cached map now (null before the run or with ioredis), for the dashboard's bridge */
  clientMap(): ClusterMap | null {
    return this.client?.map?.() ?? null;
  }

  /** ms since the workload started */
  get now(): number {
    return this.clock.now();
  }

  /**
   * Ends the run: no new operations, events stop (in-flight operations count
   * as in flight at the end, as in the simulation), the fault in progress is
   * awaited (bounded), every acknowledged key is read back, every server
   * stopped. Returns the summary.
   */
  async stop(): Promise<RedisRunResult> {
    if (this.stopped) throw new Error('stopped already');
    const endedAt = this.clock?.now() ?? 0;
    this.stopped = true;
    this.endRun();
    for (const h of this.timers) clearTimeout(h);
    this.timers.clear();
    try {
      if (this.workload === undefined) {
        await this.cluster.stop();
        throw new Error('the engine did not start');
      }
      this.workload.stop();
      this.recording = false;
      this.client.setSink(undefined);
      this.monitor.stop();
      const durationMs = this.reachedEnd ? this.scenario.durationMs : Math.min(this.scenario.durationMs, Math.max(1, Math.round(endedAt)));
      this.aggregator.finish(durationMs);
      await within(this.faultChain, 20_000);
      await this.monitor.pollStats();
      const serverCalls = { ...this.monitor.served, 'cluster|nodes by the engine itself': this.cluster.ownNodesCalls };
      const notes = this.client.notes();
      await this.client.close();
      this.clock.stop();
      const readBack = await this.readBack();
      this.checker.checkFinalData((key) => readBack.get(key) ?? 0);
      const invariants = this.checker.report();
      const lost = invariants.checks.find((c) => c.name === 'noLostAckedWrites');
      const view = await this.cluster.view();
      const nodes = this.cluster.directory.ids().map((id) => ({ id, status: this.nodeStatus(id, view?.lines ?? []) }));
      const servers = this.cluster.servers.servers.size;
      await this.cluster.stop();
      const stray = this.cluster.servers.pids().filter((pid) => alive(pid));
      const engine: RealEngineSummary = {
        kind: 'redis',
        client: this.client.kind,
        redisVersion: redisVersion(),
        servers,
        nodeTimeoutMs: this.cluster.shape.nodeTimeoutMs,
        waitReplicas: this.options.waitReplicas ?? 0,
        rate: { scenario: this.scenario.workload.ratePerSec, run: this.runRate, note: this.rateNote || (this.runRate > 0 ? 'as the scenario asks' : 'closed loop') },
        prefill: this.prefill,
        asks: Number(notes.asksFollowed ?? notes.asks ?? 0),
        serverCalls,
        faultWindows: this.faultWindows(durationMs),
        stallMs: this.stallMs(),
        lostAckedWrites: { count: lost?.violations ?? 0, ops: lost?.examples ?? [] },
        clientNotes: { ...notes, ...(this.faultErrors.length > 0 ? { faultErrors: this.faultErrors.join('; ') } : {}), ...(this.faultNotes.length > 0 ? { faultNotes: this.faultNotes.join('; ') } : {}) },
        cleanup: stray.length === 0 ? `stopped all ${servers} redis-server processes` : `STRAY redis-server pids: ${stray.join(', ')}`,
      };
      const summary = summarizeRun(
        {
          scenario: { ...this.scenario, durationMs, workload: this.workloadConfig },
          seed: this.scenario.seed,
          workload: this.workload.stats,
          applies: null,
          cluster: { epoch: this.monitor.epoch, nodes },
        },
        this.aggregator,
        invariants,
      );
      return { summary: { ...summary, engine } };
    } finally {
      await this.cluster.stop().catch(() => undefined);
    }
  }

  private nodeStatus(id: NodeId, lines: readonly NodeLine[]): string {
    if (!this.cluster.running(id)) return 'down';
    const line = this.cluster.lineOf(lines, id);
    if (line === undefined || !isMember(line)) return 'unknown';
    return isMaster(line) ? (line.slots.length > 0 ? 'master' : 'master (no slots)') : 'replica';
  }

  /** every workload key's version on the master serving it now (0 when none answers) */
  private async readBack(): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    const cluster = this.cluster;
    // Let a failover that is still running finish (a killed master without replicas stays down).
    await cluster.until('a healthy node to report cluster_state:ok', this.cluster.shape.nodeTimeoutMs * 3 + 5_000, async () => {
      for (const id of cluster.healthyIds()) if (await cluster.stateOk(id).catch(() => false)) return true;
      return false;
    }).catch(() => undefined);
    const view = await cluster.view();
    if (view === null) return out;
    // A cluster with an unserved slot answers CLUSTERDOWN to every key (cluster-require-full-coverage):
    // after the run, let the live masters serve their own slots so the read-back sees what they hold.
    for (const id of cluster.healthyIds()) await cluster.call(id, ['CONFIG', 'SET', 'cluster-allow-reads-when-down', 'yes']).catch(() => undefined);
    const ownerOfSlot = new Map<number, number>();
    for (const n of view.lines) if (isMember(n) && isMaster(n) && cluster.running(cluster.directory.idOf(n.port))) for (const [a, b] of n.slots) for (let s = a; s <= b; s++) ownerOfSlot.set(s, n.port);
    const byPort = new Map<number, string[]>();
    for (let i = 0; i < this.scenario.workload.keys; i++) {
      const key = `k${i}`;
      const port = ownerOfSlot.get(redisSlot(key));
      if (port === undefined) continue;
      const list = byPort.get(port) ?? [];
      list.push(key);
      byPort.set(port, list);
    }
    const deadlines = new RequestDeadlines();
    for (const [port, keys] of byPort) {
      const conn = new RedisConnection('127.0.0.1', port, deadlines);
      await new Promise<void>((resolve) => {
        conn.send(keys.map((k) => ['HGET', k, 'ver']), 10_000, (err, replies) => {
          if (err === null) keys.forEach((k, i) => out.set(k, versionOfReply(replies[i] ?? null)));
          resolve();
        });
      });
      conn.close();
    }
    deadlines.clear();
    return out;
  }

  private faultWindows(durationMs: number): RealEngineSummary['faultWindows'] {
    return this.faultsApplied.map((f) => {
      const repair =
        f.action === 'failover'
          ? this.monitor.promotions.find((p) => p.t >= f.t)
          : f.action === 'failback' || f.action === 'scaleOut'
            ? this.repairs.find((r) => r.t >= f.t && r.action === f.action)
            : undefined;
      const end = Math.min(durationMs, repair !== undefined ? repair.t : f.t + 5_000);
      const from = Math.floor(f.t / BUCKET_MS);
      const to = Math.max(from + 1, Math.ceil(end / BUCKET_MS));
      let ok = 0;
      let failed = 0;
      for (let i = from; i < to; i++) {
        ok += this.okBuckets[i] ?? 0;
        failed += this.failedBuckets[i] ?? 0;
      }
      return {
        action: f.action,
        node: f.node,
        atMs: Math.round(f.t),
        repairedAfterMs: repair !== undefined ? Math.round(repair.t - f.t) : null,
        okOpsPerSec: Math.round((ok / (((to - from) * BUCKET_MS) / 1000)) * 10) / 10,
        failedOps: failed,
      };
    });
  }

  private stallMs(): number {
    const first = this.faultsApplied[0];
    if (first === undefined) return 0;
    const from = Math.floor(first.t / BUCKET_MS);
    const warm = Math.min(10, Math.floor(from / 2));
    const pre = this.okBuckets.slice(warm, from);
    const base = pre.length > 0 ? pre.reduce((a, b) => a + b, 0) / pre.length : 0;
    if (base <= 0) return 0;
    let best = 0;
    let run = 0;
    const last = Math.min(this.okBuckets.length, Math.floor(this.scenario.durationMs / BUCKET_MS));
    for (let i = from; i < last; i++) {
      if ((this.okBuckets[i] ?? 0) < 0.1 * base) best = Math.max(best, ++run);
      else run = 0;
    }
    return best * BUCKET_MS;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function redisVersion(): string {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return /v=([\d.]+)/.exec(r.stdout)?.[1] ?? 'unknown';
}
