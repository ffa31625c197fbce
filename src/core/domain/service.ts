/**
 * What counts as served. The header, the evidence cards and the status line
 * judge the client by service, not by errors alone: an operation that fails,
 * an arrival the application turns away because its request pool is full,
 * and an operation stalled in flight longer than {@link STALL_THRESHOLD_MS}
 * all count against it — so a client that stalls everything can never look
 * healthier than one that fails fast. One home for these rules; panels and
 * selectors read them.
 */
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
