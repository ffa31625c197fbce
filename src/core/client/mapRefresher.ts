/**
 * One cluster-map refresh, not a thundering herd (SPEC §6, the seed's
 * TryRefreshClusterMapSafe): callers ride the shared in-flight refresh; a new
 * one starts only when none is in flight (double-checked); it does nothing
 * if the map was refreshed within the debounce window; each caller waits at
 * most its wait budget and then stops waiting without cancelling the refresh
 * for the others; the shared slot is released by compare-and-clear.
 */
import type { ClusterMap, NodeId } from '../domain/clusterMap';
import type { Scheduler, TimerId } from '../time/scheduler';
import type { RefreshCause, TelemetrySink } from '../telemetry/events';
import type { ClientConfig } from './config';
import type { Transport } from './transport';

/** How a caller's wait for a refresh ended. */
export type RefreshWaitOutcome = 'refreshed' | 'failed' | 'debounced' | 'abandoned';

interface Waiter {
  readonly op: number | null;
  readonly since: number;
  readonly done: (outcome: RefreshWaitOutcome) => void;
  settled: boolean;
  timer: TimerId;
}

/** One executed refresh: the thing in the shared slot. */
interface RefreshRun {
  readonly id: number;
  finished: boolean;
  ok: boolean;
  readonly waiters: Waiter[];
}

/** What the refresher needs from its client. */
export interface RefreshHost {
  readonly scheduler: Scheduler;
  readonly transport: Transport;
  sink(): TelemetrySink | undefined;
  config(): ClientConfig;
  currentMap(): ClusterMap;
  adoptMap(map: ClusterMap): void;
  /** nodes to fetch the map from, in a stable order */
  fetchCandidates(): readonly NodeId[];
}

export class MapRefresher {
  /** the shared in-flight refresh (the seed's `_activeRefreshTask`) */
  private active: RefreshRun | null = null;
  private lastSuccessAt = -Infinity;
  private nextId = 1;
  /** round-robin position over fetch candidates; stays on a node that answers */
  private cursor = 0;

  constructor(private readonly host: RefreshHost) {}

  /** true while a refresh is in flight */
  get inFlight(): boolean {
    return this.active !== null && !this.active.finished;
  }

  /** id of the refresh holding the shared slot, or null */
  get activeRefreshId(): number | null {
    return this.active?.id ?? null;
  }

  /** Asks for a refresh on behalf of `op` and calls `done` when this caller may go on. */
  request(op: number | null, cause: RefreshCause, done: (outcome: RefreshWaitOutcome) => void): void {
    const { scheduler } = this.host;
    const sink = this.host.sink();
    const bugs = this.host.config().bugs;
    sink?.emit({ t: scheduler.now(), type: 'refresh.request', op, cause });

    const existing = this.active;
    if (existing !== null && !existing.finished && !bugs.noRefreshCoalescing) {
      // A refresh is already in flight — ride it instead of starting another.
      sink?.emit({ t: scheduler.now(), type: 'refresh.coalesced', op, refresh: existing.id });
      this.wait(existing, op, done);
      return;
    }
    // Double-checked start. JS runs this block without interleaving, so the
    // re-read cannot change; it is kept to mirror the seed's lock-free shape.
    const again = this.active;
    if (again !== null && !again.finished && !bugs.noRefreshCoalescing) {
      this.wait(again, op, done);
      return;
    }
    const run = this.start(op);
    if (run === null) done('debounced');
    else this.wait(run, op, done);
  }

  private start(op: number | null): RefreshRun | null {
    const { scheduler } = this.host;
    const sink = this.host.sink();
    const config = this.host.config();
    const now = scheduler.now();
    const id = this.nextId++;
    if (!config.bugs.noRefreshDebounce && now - this.lastSuccessAt < config.refreshDebounceMs) {
      sink?.emit({ t: now, type: 'refresh.debounced', refresh: id, op, sinceLastMs: now - this.lastSuccessAt });
      return null;
    }
    const run: RefreshRun = { id, finished: false, ok: false, waiters: [] };
    this.active = run;
    sink?.emit({ t: now, type: 'refresh.start', refresh: id, op });
    this.fetch(run, 0, this.host.currentMap().epoch);
    return run;
  }

  /** asks one candidate after another until one answers with a map */
  private fetch(run: RefreshRun, tried: number, epochBefore: number): void {
    const candidates = this.host.fetchCandidates();
    if (tried >= candidates.length) {
      this.finish(run, false, null, tried, epochBefore);
      return;
    }
    const node = candidates[this.cursor % candidates.length] as NodeId;
    const timeout = this.host.config().attemptTimeoutMs;
    let answered = false;
    const onOutcome = (outcome: Parameters<Parameters<Transport['send']>[3]>[0]) => {
      if (answered) return;
      answered = true;
      if (outcome.ok && 'map' in outcome.reply) {
        const map = outcome.reply.map;
        if (map.epoch >= this.host.currentMap().epoch) this.host.adoptMap(map);
        this.finish(run, true, node, tried + 1, epochBefore);
      } else {
        this.cursor = (this.cursor + 1) % Math.max(1, candidates.length);
        this.fetch(run, tried + 1, epochBefore);
      }
    };
    try {
      this.host.transport.send(node, { type: 'map' }, timeout, onOutcome);
    } catch (error) {
      onOutcome({ ok: false, error });
    }
  }

  private finish(run: RefreshRun, ok: boolean, node: NodeId | null, fetches: number, epochBefore: number): void {
    const { scheduler } = this.host;
    const sink = this.host.sink();
    run.finished = true;
    run.ok = ok;
    if (ok) this.lastSuccessAt = scheduler.now();
    // Compare-and-clear: only the refresh that owns the slot releases it.
    if (this.active === run) this.active = null;
    sink?.emit({
      t: scheduler.now(),
      type: 'refresh.end',
      refresh: run.id,
      ok,
      epochBefore,
      epochAfter: this.host.currentMap().epoch,
      node,
      fetches,
    });
    for (const w of run.waiters) {
      if (w.settled) continue;
      w.settled = true;
      scheduler.clearTimer(w.timer);
      w.done(ok ? 'refreshed' : 'failed');
    }
    run.waiters.length = 0;
  }

  /** waits for `run` at most the wait budget; giving up does not cancel it */
  private wait(run: RefreshRun, op: number | null, done: (outcome: RefreshWaitOutcome) => void): void {
    if (run.finished) {
      done(run.ok ? 'refreshed' : 'failed');
      return;
    }
    const { scheduler } = this.host;
    const sink = this.host.sink();
    const waiter: Waiter = { op, since: scheduler.now(), done, settled: false, timer: 0 };
    waiter.timer = scheduler.setTimer(this.host.config().refreshWaitBudgetMs, () => {
      if (waiter.settled) return;
      waiter.settled = true;
      const now = scheduler.now();
      sink?.emit({ t: now, type: 'refresh.waitAbandoned', op, refresh: run.id, waitedMs: now - waiter.since });
      done('abandoned');
    });
    run.waiters.push(waiter);
  }
}
