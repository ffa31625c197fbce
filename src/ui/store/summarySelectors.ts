/** Named pure selectors for the header: headline rates and the session's configuration. */
import { BUG_TOGGLES, type BugToggles, type ClientConfig } from '../../core/client/config';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import { histogramQuantile } from './seriesSelectors';
import { judgeService, type ServiceVerdict } from '../../core/domain/service';
import { ANSWERED_CODES, LATENCY_BINS, METRIC_WIDTH, REFRESH_KINDS, type Metric, type Phase } from './layout';
import type { TelemetrySnapshot } from './snapshot';

/** the tiles' window: the last complete second (the bucket still filling is left out) */
export const HEADLINE_WINDOW_MS = 1000;
/** what the tiles say about the window they count over */
export const HEADLINE_WINDOW_LABEL = 'last 1 s';

/** the header's figures: rates over the last complete second, gauges as of the newest event */
export interface Headline {
  /** false while the workload is paused (or not started): rates are 0, nothing is asked of the client */
  readonly running: boolean;
  /** operations ended per second (answered or not) */
  readonly opsPerSec: number;
  /** ops per second that ended with a real answer (Ok, NotFound, Conflict) */
  readonly servedPerSec: number;
  /** ops per second that ended without a real answer */
  readonly failedPerSec: number;
  /** arrivals per second the application turned away (request pool full) */
  readonly rejectedPerSec: number;
  readonly retriesPerSec: number;
  /** refresh requests per second (before coalescing) */
  readonly refreshRequestsPerSec: number;
  /** map refreshes executed per second */
  readonly refreshesPerSec: number;
  /** ops per second that started an attempt beyond their budget */
  readonly overBudgetPerSec: number;
  readonly p99Ms: number | null;
  /** operations in flight now (= attempt + refreshWait + backoff of `parked`) */
  readonly inFlight: number;
  readonly parked: Readonly<Record<Phase, number>>;
  /** operations in flight longer than the stall threshold now */
  readonly stalled: number;
  /** the service judgement of the window (core/domain/service) */
  readonly service: { readonly verdict: ServiceVerdict; readonly share: number | null };
}

const LAST_BUCKETS = HEADLINE_WINDOW_MS / 100;

export function selectHeadline(snap: TelemetrySnapshot, running = true): Headline {
  const w = snap.window;
  const to = w.length - 1; // exclude the bucket still filling
  const buckets = Math.round(HEADLINE_WINDOW_MS / snap.bucketMs) || LAST_BUCKETS;
  const from = Math.max(0, to - buckets);
  const secs = Math.max(1, to - from) * (snap.bucketMs / 1000);
  const sum = (m: Metric, pick: (k: number) => boolean) => {
    if (!running) return 0;
    const width = METRIC_WIDTH[m];
    let s = 0;
    for (let i = from; i < to; i++) for (let k = 0; k < width; k++) if (pick(k)) s += w.cols[m][i * width + k] as number;
    return s;
  };
  const lat = new Float64Array(LATENCY_BINS);
  if (running) for (let i = from; i < to; i++) for (let k = 0; k < LATENCY_BINS; k++) lat[k] = (lat[k] as number) + (w.cols.latency[i * LATENCY_BINS + k] as number);
  const all = () => true;
  const ops = sum('opsByOutcome', all);
  const served = sum('opsByOutcome', (k) => ANSWERED_CODES.has(k));
  const rejected = sum('rejected', all);
  const p = snap.parkedNow;
  const stalled = snap.stalledNow;
  const service = running ? judgeService({ served, failed: ops - served, rejected, stalled }) : { verdict: 'idle' as const, share: null };
  return {
    running,
    opsPerSec: ops / secs,
    servedPerSec: served / secs,
    failedPerSec: (ops - served) / secs,
    rejectedPerSec: rejected / secs,
    retriesPerSec: sum('retries', all) / secs,
    refreshRequestsPerSec: sum('refresh', (k) => k === REFRESH_KINDS.indexOf('requested')) / secs,
    refreshesPerSec: sum('refresh', (k) => k === REFRESH_KINDS.indexOf('executed')) / secs,
    overBudgetPerSec: sum('overBudget', all) / secs,
    p99Ms: histogramQuantile(lat, 0.99),
    inFlight: p.attempt + p.refreshWait + p.backoff,
    parked: p,
    stalled,
    service,
  };
}

/** "3 attempts · backoff 100 ms · deadline 60 s · …" */
export function selectConfigSummary(c: ClientConfig): string {
  const deadline = c.operationTimeoutMs === null ? 'no deadline' : `deadline ${formatMs(c.operationTimeoutMs)}`;
  return [
    c.disableRetries ? 'retries off' : `${c.maxAttempts} attempts`,
    `backoff ${c.backoffMillis} ms`,
    deadline,
    `wait ${formatMs(c.refreshWaitBudgetMs)}`,
    `debounce ${c.refreshDebounceMs} ms`,
    `attempt timeout ${formatMs(c.attemptTimeoutMs)}`,
  ].join(' · ');
}

/** the bug toggles that are on */
export function selectBugsOn(bugs: BugToggles): (keyof BugToggles)[] {
  return BUG_TOGGLES.filter((b) => bugs[b]);
}

export function selectWorkloadSummary(w: WorkloadConfig): string {
  const load = [w.concurrency > 0 ? `${w.concurrency} closed-loop users` : '', w.ratePerSec > 0 ? `${w.ratePerSec}/s open loop (≤ ${w.maxInFlight} in flight)` : '']
    .filter(Boolean)
    .join(' + ');
  return `${load} · ${w.keys} keys ${w.distribution}`;
}

export function formatMs(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1000) return `${+(ms / 1000).toFixed(2)} s`;
  return `${ms} ms`;
}
