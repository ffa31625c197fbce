/** RunSummary series (1 s buckets) → chart rows, so A and B share one time axis and one y scale. */
import { servedPerSegment, type RunSummary } from '../../core/sim/runScenario';
import type { TimeRow } from '../store/selectors';

/** a closing row: the last second's values again at its end (charts draw rows as steps to the next row) */
function closed<T extends TimeRow>(rows: T[], sec: number): T[] {
  const last = rows[rows.length - 1];
  if (last !== undefined) rows.push({ ...last, t: last.t + sec });
  return rows;
}

/** A vs B completed ops/s and failed ops/s, one row per second (t at the bucket start, seconds, plus a closing row) */
export function overlayRows(a: RunSummary, b: RunSummary): TimeRow[] {
  const n = Math.max(a.throughput.series.length, b.throughput.series.length);
  const sec = a.throughput.bucketMs / 1000;
  const rows: TimeRow[] = [];
  for (let i = 0; i < n; i++) {
    rows.push({
      t: i * sec,
      aOk: a.throughput.series[i] ?? null,
      bOk: b.throughput.series[i] ?? null,
      aFailed: a.throughput.failed[i] ?? null,
      bFailed: b.throughput.failed[i] ?? null,
    });
  }
  return closed(rows, sec);
}

/** one run's parked operations by phase and throughput split, per second */
export function sideRows(s: RunSummary): { readonly parked: TimeRow[]; readonly split: TimeRow[] } {
  const sec = s.throughput.bucketMs / 1000;
  const parked = s.parked.attempt.map((_, i) => ({ t: i * sec, attempt: s.parked.attempt[i] ?? 0, refreshWait: s.parked.refreshWait[i] ?? 0, backoff: s.parked.backoff[i] ?? 0 }));
  // per segment, as the live and replay Throughput panels draw it
  const per = servedPerSegment(s.throughput);
  const split = per.healthy.map((healthy, i) => ({ t: i * sec, healthy, affected: per.affected[i] ?? null }));
  return { parked: closed(parked, sec), split: closed(split, sec) };
}

/** the largest value of `keys` (summed when stacked) over both runs' rows, for one shared y scale */
export function sharedMax(rows: readonly (readonly TimeRow[])[], keys: readonly string[], stacked: boolean): number {
  let max = 0;
  for (const rs of rows)
    for (const r of rs) {
      const vals = keys.map((k) => r[k] ?? 0);
      const v = stacked ? vals.reduce((x, y) => x + y, 0) : Math.max(0, ...vals);
      if (v > max) max = v;
    }
  return niceCeil(max);
}

/** rounds up to 1, 2, 2.5 or 5 × 10^k */
export function niceCeil(x: number): number {
  if (x <= 0) return 1;
  const mag = 10 ** Math.floor(Math.log10(x));
  for (const n of [1, 2, 2.5, 5, 10]) if (n * mag >= x) return n * mag;
  return 10 * mag;
}
