/**
 * Reads the dashboard's Zustand store from a live page (`window.__zarisLab.store`,
 * read-only) into a plain JSON value, and turns it back into the product's own
 * types so the tests judge it with the product's named selectors — never with a
 * second copy of the domain logic.
 */
import type { Page } from 'playwright-core';
import type { ClientConfig } from '../../src/core/client/config';
import type { NodeStatus, SegmentPhase } from '../../src/core/cluster/controlState';
import { OUTCOMES, type Outcome } from '../../src/core/domain/status';
import type { InvariantReport } from '../../src/core/sim/invariants';
import type { WorkloadConfig } from '../../src/core/sim/workloadConfig';
import type { InputIssue } from '../../src/core/validation';
import { BUCKET_MS, METRICS, METRIC_WIDTH, type Metric } from '../../src/ui/store/layout';
import type { FormName } from '../../src/ui/store/controlsSlice';
import type { FaultMarker, SessionTotals, TelemetrySnapshot } from '../../src/ui/store/snapshot';
import type { FaultEvidence } from '../../src/core/telemetry/faultEvidence';

/** window columns the tests read (the rest are not copied out of the page) */
export const PROBED_METRICS = ['opsByOutcome', 'opsBySplit', 'attemptsByOutcome', 'retries', 'refresh', 'attemptsPerOp', 'endReasons', 'latency', 'parked', 'stalled', 'rejected', 'overBudget'] as const satisfies readonly Metric[];
type ProbedMetric = (typeof PROBED_METRICS)[number];

/** the store as JSON: what the tests assert on */
export interface StoreState {
  readonly running: boolean;
  readonly busy: boolean;
  readonly sessionError: string | null;
  readonly presetId: string;
  readonly formErrors: Readonly<Record<FormName, readonly InputIssue[]>>;
  readonly clientConfig: ClientConfig;
  readonly workload: WorkloadConfig;
  readonly totals: SessionTotals;
  readonly parkedNow: { readonly attempt: number; readonly refreshWait: number; readonly backoff: number };
  /** ops in flight past the stall threshold at the published snapshot */
  readonly stalledNow: number;
  readonly overBudgetInFlight: number;
  readonly evidence: readonly FaultEvidence[];
  /** the published snapshot's version (DOM and store agree once the page rendered it) */
  readonly snapshotVersion: number;
  readonly faultMarkers: readonly FaultMarker[];
  readonly invariants: InvariantReport | null;
  readonly affectedSegments: readonly number[];
  readonly cluster: {
    readonly epoch: number;
    readonly nodes: readonly { readonly id: number; readonly status: NodeStatus; readonly declaredDead: boolean }[];
    readonly phaseCounts: Readonly<Partial<Record<SegmentPhase, number>>>;
  } | null;
  readonly client: { readonly epoch: number } | null;
  /** the ambiguous-write audit the panel shows (null: no report) */
  readonly writeAudit: {
    readonly audited: number;
    readonly total: number;
    readonly byCase: Readonly<Record<string, number>>;
    readonly ops: readonly number[];
    /** the writes known before each fault, as the client worker's audit noted them */
    readonly knownBefore: readonly { readonly t: number; readonly count: number; readonly exact: boolean }[];
  } | null;
  /** the published snapshot's bucket window (60 s of 100 ms buckets), probed metrics only */
  readonly window: { readonly firstBucket: number; readonly length: number; readonly cols: Readonly<Record<ProbedMetric, readonly number[]>> };
  /** page time (performance.now) when the state was read */
  readonly readAtMs: number;
}

/** one read of the store; runs in the page, so it may only use its argument */
export async function readStore(page: Page): Promise<StoreState> {
  const state: unknown = await page.evaluate((metrics: readonly string[]) => {
    interface Lab {
      store: { getState(): Record<string, unknown> };
    }
    const lab = (window as unknown as { __zarisLab?: Lab }).__zarisLab;
    if (lab === undefined) throw new Error('window.__zarisLab is missing: the app did not start');
    const s = lab.store.getState() as {
      running: boolean; busy: boolean; sessionError: string | null; presetId: string;
      formErrors: unknown; clientConfig: unknown; workload: unknown; faultMarkers: unknown;
      cluster: { epoch: number; nodes: { id: number; status: string; declaredDead: boolean }[]; phases: string[] } | null;
      client: { epoch: number } | null;
      writeAudit: { ambiguous: { audited: number; total: number; byCase: Record<string, number>; list: { op: number }[] }; knownBefore?: { t: number; count: number; exact: boolean }[] } | null;
      snapshot: {
        version: number; totals: unknown; parkedNow: unknown; stalledNow: number; overBudgetInFlight: number; evidence: unknown; invariants: unknown; affectedSegments: unknown;
        window: { firstBucket: number; length: number; cols: Record<string, Float64Array> };
      };
    };
    const phaseCounts: Record<string, number> = {};
    for (const p of s.cluster?.phases ?? []) phaseCounts[p] = (phaseCounts[p] ?? 0) + 1;
    const cols: Record<string, number[]> = {};
    for (const m of metrics) cols[m] = Array.from(s.snapshot.window.cols[m] ?? []);
    return {
      running: s.running,
      busy: s.busy,
      sessionError: s.sessionError,
      presetId: s.presetId,
      formErrors: s.formErrors,
      clientConfig: s.clientConfig,
      workload: s.workload,
      totals: s.snapshot.totals,
      parkedNow: s.snapshot.parkedNow,
      stalledNow: s.snapshot.stalledNow,
      overBudgetInFlight: s.snapshot.overBudgetInFlight,
      evidence: s.snapshot.evidence,
      snapshotVersion: s.snapshot.version,
      faultMarkers: s.faultMarkers,
      invariants: s.snapshot.invariants,
      affectedSegments: s.snapshot.affectedSegments,
      cluster: s.cluster === null ? null : { epoch: s.cluster.epoch, nodes: s.cluster.nodes.map((n) => ({ id: n.id, status: n.status, declaredDead: n.declaredDead })), phaseCounts },
      client: s.client === null ? null : { epoch: s.client.epoch },
      writeAudit: s.writeAudit === null ? null : { audited: s.writeAudit.ambiguous.audited, total: s.writeAudit.ambiguous.total, byCase: s.writeAudit.ambiguous.byCase, ops: s.writeAudit.ambiguous.list.map((w) => w.op), knownBefore: s.writeAudit.knownBefore ?? [] },
      window: { firstBucket: s.snapshot.window.firstBucket, length: s.snapshot.window.length, cols },
      readAtMs: performance.now(),
    };
  }, PROBED_METRICS);
  return state as StoreState;
}

/** the probed state as a TelemetrySnapshot, for the product's selectors (unprobed metrics are zero) */
export function toSnapshot(s: StoreState): TelemetrySnapshot {
  const cols = {} as Record<Metric, Float64Array>;
  for (const m of METRICS) {
    const probed = (s.window.cols as Partial<Record<Metric, readonly number[]>>)[m];
    cols[m] = probed !== undefined ? Float64Array.from(probed) : new Float64Array(s.window.length * METRIC_WIDTH[m]);
  }
  return {
    version: 0,
    bucketMs: BUCKET_MS,
    window: { firstBucket: s.window.firstBucket, length: s.window.length, cols },
    session: null,
    parkedNow: s.parkedNow,
    stalledNow: s.stalledNow,
    overBudgetInFlight: s.overBudgetInFlight,
    evidence: s.evidence,
    events: [],
    invariants: s.invariants,
    affectedSegments: s.affectedSegments,
    totals: s.totals,
  };
}

/** sum of value `k` of metric `m` over buckets whose start time lies in [fromMs, toMs) (event time) */
export function windowSum(s: StoreState, m: ProbedMetric, k: number | ((k: number) => boolean), fromMs = -Infinity, toMs = Infinity): number {
  const width = METRIC_WIDTH[m];
  const col = s.window.cols[m];
  const pick = typeof k === 'number' ? (x: number) => x === k : k;
  let sum = 0;
  for (let i = 0; i < s.window.length; i++) {
    const t = (s.window.firstBucket + i) * BUCKET_MS;
    if (t < fromMs || t >= toMs) continue;
    for (let j = 0; j < width; j++) if (pick(j)) sum += col[i * width + j] as number;
  }
  return sum;
}

/** attempts ended in the window, by outcome (status or transport error) */
export function attemptOutcomes(s: StoreState): Record<Outcome, number> {
  return Object.fromEntries(OUTCOMES.map((o, i) => [o, windowSum(s, 'attemptsByOutcome', i)])) as Record<Outcome, number>;
}

/** time of the last complete bucket's end, ms of event time (the head bucket is still filling) */
export function completeUntilMs(s: StoreState): number {
  return (s.window.firstBucket + s.window.length - 1) * BUCKET_MS;
}

/** operations ended per second between `fromMs` and `toMs` (event time, whole buckets) */
export function opsPerSec(s: StoreState, fromMs: number, toMs: number): number {
  const to = Math.min(toMs, completeUntilMs(s));
  if (to <= fromMs) return 0;
  return windowSum(s, 'opsByOutcome', () => true, fromMs, to) / ((to - fromMs) / 1000);
}

/** a short line for failure messages */
export function describeState(s: StoreState): string {
  const out = attemptOutcomes(s);
  const seen = Object.entries(out)
    .filter(([, n]) => n > 0)
    .map(([o, n]) => `${o}=${n}`)
    .join(' ');
  const nodes = s.cluster?.nodes.map((n) => `n${n.id}:${n.status}${n.declaredDead ? '(dead)' : ''}`).join(' ') ?? 'no cluster view';
  return `t=${(s.totals.lastT / 1000).toFixed(1)}s running=${s.running} ops=${s.totals.opsEnded} retries=${s.totals.retries} refresh req/exec=${s.totals.refreshRequested}/${s.totals.refreshExecuted} maxAttempts/op=${s.totals.maxAttemptsPerOp} epoch=${s.cluster?.epoch ?? '—'}/${s.client?.epoch ?? '—'} ${nodes} phases=${JSON.stringify(s.cluster?.phaseCounts ?? {})} attempts: ${seen} sessionError=${s.sessionError ?? 'none'}`;
}
