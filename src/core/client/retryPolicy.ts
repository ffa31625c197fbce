/**
 * The client's retry brain (the seed's ClientRetryHelper): which outcomes are
 * transient, which prove the routing stale, how long to wait, and when to
 * stop. Pure functions of (outcome, attempt, now, deadline, config); the
 * operation runner in `ZarisClient.ts` carries the decisions out.
 */
import { KvStatus, NON_RETRYABLE, type OpErrorCode } from '../domain/status';
import { SHORTEST_TIMER_MS } from '../time/scheduler';
import { attemptBudget, type BugToggles, type ClientConfig } from './config';

/** hard cap on any backoff delay, ms */
export const MAX_BACKOFF_MS = 2_000;
/** a migration takes real time: back off this many times longer after `Migrating` */
export const MIGRATING_BACKOFF_FACTOR = 8;

/** Retry only these: "transient; the same request can succeed shortly". */
export function shouldRetry(status: KvStatus, bugs: BugToggles): boolean {
  switch (status) {
    case KvStatus.Moved:
    case KvStatus.ReplicaWriteRejected:
    case KvStatus.Unavailable:
    case KvStatus.Migrating:
    case KvStatus.OwnershipChanging:
      return true;
    case KvStatus.Conflict:
      return bugs.retryConflict; // the bug: silently defeats compare-and-swap
    default:
      return false;
  }
}

/** Of those, these mean "you reached the wrong node — refresh routing first". */
export function requiresMapRefresh(status: KvStatus): boolean {
  return status === KvStatus.Moved || status === KvStatus.ReplicaWriteRejected || status === KvStatus.OwnershipChanging;
}

/** Transport failures are retried after a map refresh; anything else is rethrown at once. */
export function isRetryableError(code: OpErrorCode): boolean {
  return code !== NON_RETRYABLE;
}

/** What one attempt came to. */
export type AttemptResult =
  | { readonly status: KvStatus; readonly value?: string; readonly version?: number; readonly error?: undefined }
  | { readonly error: OpErrorCode; readonly status?: undefined; readonly cause?: unknown };

export type AttemptDecision =
  /** hand the result back: success, a real answer, or a non-retryable exception */
  | { readonly kind: 'return'; readonly reason: 'success' | 'realAnswer' | 'nonRetryable' }
  /**
   * transient: retry, refreshing the cluster map first when the routing is
   * proven stale. The refresh happens even when no further attempt may run
   * (see {@link retriesAfterAttempt}).
   */
  | { readonly kind: 'retry'; readonly refreshFirst: boolean };

// The five possible decisions, shared (one is taken after every attempt).
const RETURN_SUCCESS: AttemptDecision = { kind: 'return', reason: 'success' };
const RETURN_REAL_ANSWER: AttemptDecision = { kind: 'return', reason: 'realAnswer' };
const RETURN_NON_RETRYABLE: AttemptDecision = { kind: 'return', reason: 'nonRetryable' };
const RETRY_AFTER_REFRESH: AttemptDecision = { kind: 'retry', refreshFirst: true };
const RETRY: AttemptDecision = { kind: 'retry', refreshFirst: false };

/** The decision after an attempt, independent of the bounds. */
export function decideAfterAttempt(result: AttemptResult, bugs: BugToggles): AttemptDecision {
  if (result.error !== undefined) return isRetryableError(result.error) ? RETRY_AFTER_REFRESH : RETURN_NON_RETRYABLE;
  if (result.status === KvStatus.Ok) return RETURN_SUCCESS;
  if (!shouldRetry(result.status, bugs)) return RETURN_REAL_ANSWER;
  return requiresMapRefresh(result.status) ? RETRY_AFTER_REFRESH : RETRY;
}

/**
 * The loop condition: `attempt <= maxAttempts && (no deadline || now < deadline)`.
 * Both bounds hold; whichever comes first stops the loop. With the
 * `deadlineReplacesAttempts` bug, a set deadline is the only bound.
 */
export function mayAttempt(attempt: number, now: number, deadline: number | null, config: ClientConfig): boolean {
  const beforeDeadline = deadline === null || now < deadline;
  if (config.bugs.deadlineReplacesAttempts && deadline !== null) return beforeDeadline;
  return attempt <= attemptBudget(config) && beforeDeadline;
}

/**
 * After a retryable outcome (and its map refresh, if any): sleep and try
 * again only if another attempt may start now. The seed awaits `onMoved`
 * right after a wrong-node status or a transport failure, *before* the loop
 * condition is tested — so the final attempt refreshes the map too (later
 * operations are routed by the fresh map); only the sleep is skipped.
 */
export function retriesAfterAttempt(attempt: number, now: number, deadline: number | null, config: ClientConfig): boolean {
  return mayAttempt(attempt + 1, now, deadline, config);
}

/**
 * Which bound ended the loop after `attemptsMade` attempts: the attempt
 * budget when it was spent before the deadline passed (the final attempt's
 * map refresh may outlast the deadline; the budget still stopped the loop),
 * else the deadline — `waitBudget` when it passed while the operation waited
 * for a map refresh.
 */
export function exhaustedReason(
  attemptsMade: number,
  lastAttemptEndedAt: number,
  now: number,
  deadline: number | null,
  deadlinePassedInRefreshWait: boolean,
  config: ClientConfig,
): 'attemptsExhausted' | 'deadline' | 'waitBudget' {
  const budgetBounds = !(config.bugs.deadlineReplacesAttempts && deadline !== null);
  const budgetSpentInTime = budgetBounds && attemptsMade >= attemptBudget(config) && (deadline === null || lastAttemptEndedAt < deadline);
  if (budgetSpentInTime || deadline === null || now < deadline) return 'attemptsExhausted';
  return deadlinePassedInRefreshWait ? 'waitBudget' : 'deadline';
}

/**
 * Delay before the attempt after `attempt`: `backoffMillis × attempt`, ×8 after
 * `Migrating`, capped at 2 s, clamped to the time left before the deadline
 * (0 when none is left). At least {@link SHORTEST_TIMER_MS} (still clamped)
 * when only the deadline bounds the loop and nothing has taken any time since
 * the attempt began at `attemptStartedAt` (default: never): virtual time has
 * no timer floor, so an attempt that fails locally (no owner in the map)
 * after a refresh that returns at once (debounced, or a wait budget of 0)
 * would start the next one at the same instant, and the deadline that alone
 * ends the loop would never come. An attempt that took time (it went to a
 * node) keeps its 0 ms, and so do loops with an attempt budget.
 */
export function backoffDelay(
  attempt: number,
  status: KvStatus | undefined,
  now: number,
  deadline: number | null,
  config: ClientConfig,
  attemptStartedAt = -Infinity,
): number {
  const base = config.backoffMillis * attempt;
  const delayMs = status === KvStatus.Migrating ? base * MIGRATING_BACKOFF_FACTOR : base;
  let delay = Math.min(delayMs, MAX_BACKOFF_MS);
  if (delay < SHORTEST_TIMER_MS && now === attemptStartedAt && deadline !== null && config.bugs.deadlineReplacesAttempts) delay = SHORTEST_TIMER_MS;
  if (deadline !== null && !config.bugs.unclampedBackoff) {
    const remaining = deadline - now;
    if (remaining <= 0) return 0;
    if (delay > remaining) delay = remaining; // never overshoot
  }
  return delay;
}

/** Each attempt's transport timeout, clamped to the remaining deadline. */
export function attemptTimeout(now: number, deadline: number | null, config: ClientConfig): number {
  if (deadline === null) return config.attemptTimeoutMs;
  return Math.max(0, Math.min(config.attemptTimeoutMs, deadline - now));
}

/** Absolute deadline of an operation started at `startedAt` (null = none). */
export function operationDeadline(startedAt: number, config: ClientConfig): number | null {
  return config.operationTimeoutMs === null ? null : startedAt + config.operationTimeoutMs;
}
