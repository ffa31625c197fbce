/** Named pure selectors for the header: headline rates and the session's configuration. */
import { BUG_TOGGLES, type BugToggles, type ClientConfig } from '../../core/client/config';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import { histogramQuantile } from './seriesSelectors';
import { ANSWERED_CODES, LATENCY_BINS, METRIC_WIDTH, REFRESH_KINDS, type Metric } from './layout';
import type { TelemetrySnapshot } from './snapshot';

/** rates over the last complete second of the window */
export interface Headline {
  readonly opsPerSec: number;
  /** ops per second that ended without a real answer */
  readonly failedPerSec: number;
  readonly retriesPerSec: number;
  /** map refreshes executed per second */
  readonly refreshesPerSec: number;
  readonly p99Ms: number | null;
  /** operations in flight now */
  readonly inFlight: number;
}

const LAST_BUCKETS = 10;

export function selectHeadline(snap: TelemetrySnapshot): Headline {
  const w = snap.window;
  const to = w.length - 1; // exclude the bucket still filling
  const from = Math.max(0, to - LAST_BUCKETS);
  const secs = Math.max(1, to - from) * (snap.bucketMs / 1000);
  const sum = (m: Metric, pick: (k: number) => boolean) => {
    const width = METRIC_WIDTH[m];
    let s = 0;
    for (let i = from; i < to; i++) for (let k = 0; k < width; k++) if (pick(k)) s += w.cols[m][i * width + k] as number;
    return s;
  };
  const lat = new Float64Array(LATENCY_BINS);
  for (let i = from; i < to; i++) for (let k = 0; k < LATENCY_BINS; k++) lat[k] = (lat[k] as number) + (w.cols.latency[i * LATENCY_BINS + k] as number);
  const ops = sum('opsByOutcome', () => true);
  const answered = sum('opsByOutcome', (k) => ANSWERED_CODES.has(k));
  const p = snap.parkedNow;
  return {
    opsPerSec: ops / secs,
    failedPerSec: (ops - answered) / secs,
    retriesPerSec: sum('retries', () => true) / secs,
    refreshesPerSec: sum('refresh', (k) => k === REFRESH_KINDS.indexOf('executed')) / secs,
    p99Ms: histogramQuantile(lat, 0.99),
    inFlight: p.attempt + p.refreshWait + p.backoff,
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
