/**
 * What counts as served — one home for these rules; the live header, the
 * evidence cards, the status line, the Compare table, its verdict and the
 * review report read them. Every operation the application asked for was
 * either *served* (an answer: Ok, or a real NotFound / Conflict) or *not
 * served*: it failed (the client gave up or hit a non-retryable error), it
 * timed out (its deadline or the refresh wait budget ran out), it never
 * started because the application's request pool was full (a rejected
 * arrival), or — live, at a window's end — it has been stalled in flight
 * longer than {@link STALL_THRESHOLD_MS}. So a client that stalls everything
 * can never look healthier than one that fails fast.
 */
import type { EndReason } from '../telemetry/events';
import type { Outcome } from './status';

/** final outcomes that are real answers: the operation was served (Conflict / NotFound are answers too) */
export const SERVED_OUTCOMES: readonly Outcome[] = ['Ok', 'NotFound', 'Conflict'];
const SERVED = new Set<Outcome>(SERVED_OUTCOMES);

/** true when an attempt or operation that came to `outcome` got a real answer */
export function isServed(outcome: Outcome): boolean {
  return SERVED.has(outcome);
}

/** ms an operation may stay in flight before it counts as stalled (not served) */
export const STALL_THRESHOLD_MS = 1000;

/** true when an operation in flight for `ageMs` is stalled */
export function isStalled(ageMs: number): boolean {
  return ageMs > STALL_THRESHOLD_MS;
}

/** demand over one window, by how it was met */
export interface ServiceCounts {
  /** operations that ended with a real answer */
  readonly served: number;
  /** operations that ended without one */
  readonly failed: number;
  /** arrivals turned away (request pool full) */
  readonly rejected: number;
  /** operations in flight longer than the stall threshold at the window's end */
  readonly stalled: number;
}

export type ServiceVerdict = 'idle' | 'healthy' | 'degraded' | 'notServing';

/** share of demand served at or above which the client is healthy */
export const HEALTHY_SHARE = 0.99;
/** below this share of demand served the client is not serving */
export const NOT_SERVING_SHARE = 0.5;

/** served / (served + failed + rejected + stalled); null with no demand at all */
export function servedShare(c: ServiceCounts): number | null {
  const demand = c.served + c.failed + c.rejected + c.stalled;
  return demand > 0 ? c.served / demand : null;
}

/** the verdict on a window's service */
export function judgeService(c: ServiceCounts): { readonly verdict: ServiceVerdict; readonly share: number | null } {
  const share = servedShare(c);
  if (share === null) return { verdict: 'idle', share };
  return { verdict: share >= HEALTHY_SHARE ? 'healthy' : share >= NOT_SERVING_SHARE ? 'degraded' : 'notServing', share };
}

// ---- whole-run tallies by end reason (Compare, the review report) ----

/** what one ended operation was to its user */
export type ServiceClass = 'served' | 'failed' | 'timedOut';

export const SERVICE_CLASS_OF_END: Readonly<Record<EndReason, ServiceClass>> = {
  success: 'served',
  // NotFound / Conflict are answers: the user learned the truth
  realAnswer: 'served',
  attemptsExhausted: 'failed',
  nonRetryable: 'failed',
  deadline: 'timedOut',
  waitBudget: 'timedOut',
};

/** a run's operations by what their users got */
export interface ServiceTally {
  /** ended with an answer */
  readonly served: number;
  /** failed + timedOut + rejected */
  readonly notServed: number;
  readonly failed: number;
  readonly timedOut: number;
  /** arrivals refused before they started (open loop, pool full) */
  readonly rejected: number;
  /** started but not ended when the run stopped: neither served nor refused yet */
  readonly unfinished: number;
  /** served + notServed + unfinished: every operation the application asked for */
  readonly asked: number;
}

/**
 * Tallies service from end-reason counts (unknown reasons count as failed:
 * an answer is only what the client reported as one), refused arrivals and
 * operations still in flight.
 */
export function serviceTally(endReasons: Readonly<Record<string, number>>, rejected: number, unfinished: number): ServiceTally {
  let served = 0;
  let failed = 0;
  let timedOut = 0;
  for (const [reason, n] of Object.entries(endReasons)) {
    const cls = (SERVICE_CLASS_OF_END as Readonly<Record<string, ServiceClass>>)[reason] ?? 'failed';
    if (cls === 'served') served += n;
    else if (cls === 'timedOut') timedOut += n;
    else failed += n;
  }
  const notServed = failed + timedOut + rejected;
  return { served, notServed, failed, timedOut, rejected, unfinished, asked: served + notServed + unfinished };
}
