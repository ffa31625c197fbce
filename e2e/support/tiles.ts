/**
 * The headline tiles against the store, read at one instant: one page.evaluate
 * copies the published snapshot's last buckets and gauges and the tiles'
 * DOM together, so no publish can fall between them. The expected tiles come
 * from the product's own selectors and `headlineKpis` (what KpiStrip renders).
 */
import { expect } from 'vitest';
import type { ClientConfig } from '../../src/core/client/config';
import type { WorkloadConfig } from '../../src/core/sim/workloadConfig';
import type { FaultEvidence } from '../../src/core/telemetry/faultEvidence';
import { headlineKpis, preFaultRate, type Kpi } from '../../src/ui/KpiStrip';
import { BUCKET_MS, METRICS, METRIC_WIDTH, type Metric } from '../../src/ui/store/layout';
import { selectDebounceCeiling, selectHeadline, selectPoolSize } from '../../src/ui/store/selectors';
import type { TelemetrySnapshot } from '../../src/ui/store/snapshot';
import type { DashboardPage } from '../pages/dashboard.page';

/** tiles whose value this read cannot reproduce (stale segments needs the full cluster and client maps) */
const NOT_COMPARED = new Set(['stale segments']);
/** buckets copied: the headline's second plus the bucket still filling */
const TAIL = 12;
const HEADLINE_METRICS = ['opsByOutcome', 'rejected', 'retries', 'refresh', 'overBudget', 'latency'] as const satisfies readonly Metric[];

interface Tile {
  readonly label: string;
  readonly value: string;
  readonly caption: string;
  readonly tone: string;
}

interface Instant {
  readonly running: boolean;
  readonly everStarted: boolean;
  readonly clientConfig: ClientConfig;
  readonly workload: WorkloadConfig;
  readonly version: number;
  readonly parkedNow: TelemetrySnapshot['parkedNow'];
  readonly stalledNow: number;
  /** the fault records, for the served-rate tile against the open one's rate before it */
  readonly evidence: FaultEvidence[];
  readonly firstBucket: number;
  readonly length: number;
  readonly cols: Record<string, number[]>;
  readonly dom: { readonly version: number; readonly parkedVersion: number; readonly inFlight: number; readonly parts: Record<string, string>; readonly tiles: Tile[] };
}

export interface TilesRead {
  readonly instant: Instant;
  readonly dom: Tile[];
  readonly expected: Kpi[];
  readonly parked: { inFlight: number; parts: Record<string, string> };
}

async function readInstant(d: DashboardPage): Promise<Instant> {
  return (await d.page.evaluate(
    ({ metrics, widths, tail }) => {
      const lab = (window as unknown as { __zarisLab: { store: { getState(): Record<string, unknown> } } }).__zarisLab;
      const s = lab.store.getState() as {
        running: boolean; everStarted: boolean; clientConfig: unknown; workload: unknown;
        snapshot: { version: number; parkedNow: unknown; stalledNow: number; evidence: FaultEvidence[]; window: { firstBucket: number; length: number; cols: Record<string, Float64Array> } };
      };
      const w = s.snapshot.window;
      const from = Math.max(0, w.length - tail);
      const cols: Record<string, number[]> = {};
      for (const m of metrics) cols[m] = Array.from(w.cols[m]?.subarray(from * (widths[m] as number)) ?? []);
      const el = document.querySelector('.kpis');
      const gauge = document.querySelector('.gauge-now');
      return {
        running: s.running, everStarted: s.everStarted, clientConfig: s.clientConfig, workload: s.workload,
        version: s.snapshot.version, parkedNow: s.snapshot.parkedNow, stalledNow: s.snapshot.stalledNow, evidence: s.snapshot.evidence,
        firstBucket: w.firstBucket + from, length: w.length - from, cols,
        dom: {
          version: Number(el?.getAttribute('data-version') ?? -1),
          parkedVersion: Number(gauge?.getAttribute('data-version') ?? -1),
          inFlight: Number(gauge?.getAttribute('data-in-flight') ?? -1),
          parts: Object.fromEntries(Array.from(gauge?.querySelectorAll('[data-phase]') ?? []).map((p) => [p.getAttribute('data-phase') ?? '', (p.textContent ?? '').replace(/^ · /, '')])),
          tiles: Array.from(el?.querySelectorAll('.kpi') ?? []).map((k) => ({
            label: k.querySelector('dt')?.textContent ?? '',
            value: k.querySelector('dd.kpi-value')?.textContent ?? '',
            caption: k.querySelector('dd.kpi-win')?.textContent ?? '',
            tone: ['bad', 'warn', 'ok'].find((t) => k.classList.contains(t)) ?? '',
          })),
        },
      };
    },
    { metrics: HEADLINE_METRICS as readonly string[], widths: METRIC_WIDTH as Record<string, number>, tail: TAIL },
  )) as Instant;
}

/** the tiles the store's snapshot implies */
export function expectedTiles(i: Instant): Kpi[] {
  const cols = {} as Record<Metric, Float64Array>;
  for (const m of METRICS) cols[m] = i.cols[m] !== undefined ? Float64Array.from(i.cols[m] as number[]) : new Float64Array(i.length * METRIC_WIDTH[m]);
  const snap: TelemetrySnapshot = {
    version: i.version, bucketMs: BUCKET_MS, window: { firstBucket: i.firstBucket, length: i.length, cols }, session: null,
    parkedNow: i.parkedNow, stalledNow: i.stalledNow, overBudgetInFlight: 0, evidence: i.evidence, events: [], invariants: null, affectedSegments: [],
    totals: { events: 0, opsEnded: 0, opsOk: 0, opsFailed: 0, attempts: 0, retries: 0, refreshRequested: 0, refreshExecuted: 0, maxAttemptsPerOp: 0, overBudgetOps: 0, rejected: 0, lastT: 0 },
  };
  const c = i.clientConfig;
  return headlineKpis(selectHeadline(snap, i.running), {
    ceiling: selectDebounceCeiling(c.refreshDebounceMs, c.bugs.noRefreshDebounce),
    stale: 0,
    poolSize: selectPoolSize(i.workload),
    closedLoopUsers: i.workload.concurrency,
    stopped: i.everStarted ? 'paused' : 'not started',
    preFaultPerSec: preFaultRate(i.evidence),
  }).filter((k) => !NOT_COMPARED.has(k.label));
}

/**
 * Reads until the tiles and the parked panel have drawn the store's published snapshot (their
 * data-version), then requires the DOM to show exactly what that snapshot implies, and the parked
 * panel's in-flight figure to be the in-flight tile's.
 */
export async function tilesMatchingStore(d: DashboardPage, timeoutMs = 20_000): Promise<TilesRead> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const instant = await readInstant(d);
    const dom = instant.dom.tiles;
    const expected = expectedTiles(instant);
    const parked = { inFlight: instant.dom.inFlight, parts: instant.dom.parts };
    if (instant.dom.version === instant.version && instant.dom.parkedVersion === instant.version) {
      expect(dom.map((t) => t.label).filter((l) => expected.some((k) => k.label === l)), 'tiles in order').toEqual(expected.map((k) => k.label));
      for (const k of expected) expect(dom.find((t) => t.label === k.label), `tile "${k.label}" = the store's snapshot ${instant.version}`).toEqual({ ...k, tone: k.tone ?? '' });
      const p = instant.parkedNow;
      expect(parked.inFlight, 'the parked panel = the store').toBe(p.attempt + p.refreshWait + p.backoff);
      expect(dom.find((t) => t.label === 'in flight')?.value.replace(/,/g, ''), 'the in-flight tile = the parked panel').toBe(String(parked.inFlight));
      return { instant, dom, expected, parked };
    }
    // a frame not drawn yet: read again
    if (Date.now() > until) throw new Error(`the tiles never drew the store's snapshot (store ${instant.version}, tiles ${instant.dom.version}, parked panel ${instant.dom.parkedVersion})`);
    await d.page.waitForTimeout(50);
  }
}
