/** Hand-built event sequences for the store's tests. */
import type { ZarisEvent } from '../../core/telemetry/events';

/** op 1 on segment 3: Moved → refresh (op 2 rides it) → Migrating-sized backoff → Ok on attempt 2 */
export function retriedOp(): ZarisEvent[] {
  return [
    { t: 50, type: 'op.start', op: 1, kind: 'put', key: 'k1', segment: 3, deadline: 60_050, budget: 3 },
    { t: 50, type: 'attempt.start', op: 1, attempt: 1, node: 0, epoch: 1 },
    { t: 55, type: 'op.start', op: 2, kind: 'get', key: 'k2', segment: 4, deadline: 60_055, budget: 3 },
    { t: 55, type: 'attempt.start', op: 2, attempt: 1, node: 0, epoch: 1 },
    { t: 60, type: 'attempt.end', op: 1, attempt: 1, node: 0, status: 'Moved', latencyMs: 10 },
    { t: 60, type: 'refresh.request', op: 1, cause: 'Moved' },
    { t: 60, type: 'refresh.start', refresh: 1, op: 1 },
    { t: 70, type: 'attempt.end', op: 2, attempt: 1, node: 0, status: 'Moved', latencyMs: 15 },
    { t: 70, type: 'refresh.request', op: 2, cause: 'Moved' },
    { t: 70, type: 'refresh.coalesced', op: 2, refresh: 1 },
    { t: 150, type: 'refresh.end', refresh: 1, ok: true, epochBefore: 1, epochAfter: 2, node: 1, fetches: 1 },
    { t: 150, type: 'backoff', op: 1, attempt: 1, delayMs: 800, status: 'Migrating' },
    { t: 150, type: 'backoff', op: 2, attempt: 1, delayMs: 100, status: 'Moved' },
    { t: 250, type: 'attempt.start', op: 2, attempt: 2, node: 1, epoch: 2 },
    { t: 255, type: 'attempt.end', op: 2, attempt: 2, node: 1, status: 'Ok', latencyMs: 5 },
    { t: 255, type: 'op.end', op: 2, status: 'Ok', attempts: 2, latencyMs: 200, version: 1, reason: 'success' },
    { t: 950, type: 'attempt.start', op: 1, attempt: 2, node: 1, epoch: 2 },
    { t: 952, type: 'attempt.end', op: 1, attempt: 2, node: 1, status: 'Ok', latencyMs: 2 },
    { t: 952, type: 'op.end', op: 1, status: 'Ok', attempts: 2, latencyMs: 902, version: 3, reason: 'success' },
  ];
}

/** a steady stream: `n` one-attempt Ok gets, one every `everyMs`, starting at `t0`, op ids from `op0` */
export function steadyOps(n: number, t0: number, everyMs: number, op0: number, segment = 0): ZarisEvent[] {
  const out: ZarisEvent[] = [];
  for (let i = 0; i < n; i++) {
    const t = t0 + i * everyMs;
    const op = op0 + i;
    out.push(
      { t, type: 'op.start', op, kind: 'get', key: `k${op % 50}`, segment, deadline: t + 60_000, budget: 3 },
      { t, type: 'attempt.start', op, attempt: 1, node: 0, epoch: 1 },
      { t: t + 1, type: 'attempt.end', op, attempt: 1, node: 0, status: 'Ok', latencyMs: 1 },
      { t: t + 1, type: 'op.end', op, status: 'Ok', attempts: 1, latencyMs: 1, reason: 'success' },
    );
  }
  return out;
}
