import { describe, expect, it } from 'vitest';
import { KV_STATUSES, NON_RETRYABLE, TRANSPORT_ERRORS, type KvStatus } from '../domain/status';
import { NO_BUGS, type BugToggles } from './config';
import {
  attemptTimeout,
  backoffDelay,
  decideAfterAttempt,
  isRetryableError,
  MAX_BACKOFF_MS,
  mayAttempt,
  MIGRATING_BACKOFF_FACTOR,
  exhaustedReason,
  operationDeadline,
  requiresMapRefresh,
  retriesAfterAttempt,
  shouldRetry,
  type AttemptDecision,
} from './retryPolicy';
import { cfg } from './testkit/harness';

/** every bug toggle on except `retryConflict`: none of them may change a decision */
const OTHER_BUGS: BugToggles = {
  deadlineReplacesAttempts: true,
  noRefreshCoalescing: true,
  noRefreshDebounce: true,
  unclampedBackoff: true,
  retryConflict: false,
};

/** SPEC §5, written out per status */
const STATUS_RULES: Record<KvStatus, { retry: boolean; refresh: boolean; decision: AttemptDecision }> = {
  Ok: { retry: false, refresh: false, decision: { kind: 'return', reason: 'success' } },
  NotFound: { retry: false, refresh: false, decision: { kind: 'return', reason: 'realAnswer' } },
  Conflict: { retry: false, refresh: false, decision: { kind: 'return', reason: 'realAnswer' } },
  Moved: { retry: true, refresh: true, decision: { kind: 'retry', refreshFirst: true } },
  OwnershipChanging: { retry: true, refresh: true, decision: { kind: 'retry', refreshFirst: true } },
  ReplicaWriteRejected: { retry: true, refresh: true, decision: { kind: 'retry', refreshFirst: true } },
  Migrating: { retry: true, refresh: false, decision: { kind: 'retry', refreshFirst: false } },
  Unavailable: { retry: true, refresh: false, decision: { kind: 'retry', refreshFirst: false } },
};

describe('status decisions (exhaustive over KV_STATUSES)', () => {
  it('the rule table covers exactly the status vocabulary', () => {
    expect(Object.keys(STATUS_RULES).sort()).toEqual([...KV_STATUSES].sort());
  });

  it.each(KV_STATUSES.map((s) => [s, STATUS_RULES[s]] as const))('%s → %o', (status, rule) => {
    expect(shouldRetry(status, NO_BUGS)).toBe(rule.retry);
    expect(requiresMapRefresh(status)).toBe(rule.refresh);
    expect(decideAfterAttempt({ status }, NO_BUGS)).toEqual(rule.decision);
    // the other bug toggles leave the decision alone
    expect(shouldRetry(status, OTHER_BUGS)).toBe(rule.retry);
    expect(decideAfterAttempt({ status }, OTHER_BUGS)).toEqual(rule.decision);
  });

  it.each(KV_STATUSES.map((s) => [s] as const))('retryConflict changes only Conflict: %s', (status) => {
    const bugs = { ...NO_BUGS, retryConflict: true };
    const expected = status === 'Conflict' ? { kind: 'retry', refreshFirst: false } : STATUS_RULES[status].decision;
    expect(shouldRetry(status, bugs)).toBe(status === 'Conflict' ? true : STATUS_RULES[status].retry);
    expect(decideAfterAttempt({ status }, bugs)).toEqual(expected);
  });
});

describe('error decisions', () => {
  it.each(TRANSPORT_ERRORS.map((e) => [e] as const))('transport failure %s → retry after a map refresh', (error) => {
    expect(isRetryableError(error)).toBe(true);
    expect(decideAfterAttempt({ error }, NO_BUGS)).toEqual({ kind: 'retry', refreshFirst: true });
  });

  it('any other exception → returned at once as non-retryable', () => {
    expect(isRetryableError(NON_RETRYABLE)).toBe(false);
    expect(decideAfterAttempt({ error: NON_RETRYABLE, cause: new Error('boom') }, NO_BUGS)).toEqual({
      kind: 'return',
      reason: 'nonRetryable',
    });
  });
});

describe('backoffDelay', () => {
  const c = cfg({ backoffMillis: 100 });
  it('uses the seed constants', () => {
    expect(MAX_BACKOFF_MS).toBe(2000);
    expect(MIGRATING_BACKOFF_FACTOR).toBe(8);
  });

  it.each([
    // attempt, status, now, deadline, expected
    [1, 'Moved', 0, null, 100],
    [2, 'Moved', 0, null, 200],
    [3, 'Unavailable', 0, null, 300],
    [19, 'Unavailable', 0, null, 1900],
    [20, 'Unavailable', 0, null, 2000],
    [21, 'Unavailable', 0, null, 2000],
    [1, 'Migrating', 0, null, 800],
    [2, 'Migrating', 0, null, 1600],
    [3, 'Migrating', 0, null, 2000],
    [1, undefined, 0, null, 100], // after a transport failure
    [2, 'Moved', 0, 60_000, 200], // plenty of time left
    [2, 'Moved', 59_950, 60_000, 50], // clamped to the time left
    [1, 'Migrating', 59_000, 60_000, 800],
    [2, 'Migrating', 59_000, 60_000, 1000],
    [3, 'Moved', 59_999, 60_000, 1],
    [3, 'Moved', 60_000, 60_000, 0], // no time left
    [3, 'Moved', 61_000, 60_000, 0], // past the deadline
  ] as const)('attempt %i, %s, now %i, deadline %s → %i ms', (attempt, status, now, deadline, expected) => {
    expect(backoffDelay(attempt, status, now, deadline, c)).toBe(expected);
  });

  it('scales with backoffMillis', () => {
    expect(backoffDelay(3, 'Moved', 0, null, cfg({ backoffMillis: 7 }))).toBe(21);
    expect(backoffDelay(3, 'Migrating', 0, null, cfg({ backoffMillis: 7 }))).toBe(168);
  });

  it('backoffMillis 0 with only the deadline bounding the loop (deadlineReplacesAttempts): at least 1 ms, clamped to the time left — virtual time must move for the deadline to end the loop', () => {
    const storm = cfg({ backoffMillis: 0, bugs: { deadlineReplacesAttempts: true } });
    // the attempt (and its refresh) took no time: now is when it began
    expect(backoffDelay(1, 'Moved', 0, 60_000, storm, 0)).toBe(1);
    expect(backoffDelay(7, undefined, 500, 60_000, storm, 500)).toBe(1);
    expect(backoffDelay(7, 'Migrating', 59_999.75, 60_000, storm, 59_999.75)).toBe(0.25);
    // an attempt that took time (it went to a node) keeps the rule's 0 ms
    expect(backoffDelay(1, 'Moved', 0.5, 60_000, storm, 0)).toBe(0);
    expect(backoffDelay(1, 'Moved', 0, 60_000, storm)).toBe(0);
    // an attempt budget bounds the loop: 0 ms stays 0 ms
    expect(backoffDelay(1, 'Moved', 0, 60_000, cfg({ backoffMillis: 0 }), 0)).toBe(0);
    expect(backoffDelay(1, 'Moved', 0, null, storm, 0)).toBe(0);
    // a longer backoff is unchanged
    expect(backoffDelay(2, 'Moved', 0, 60_000, cfg({ backoffMillis: 100, bugs: { deadlineReplacesAttempts: true } }))).toBe(200);
  });

  it('with unclampedBackoff the delay ignores the deadline (still capped at 2 s)', () => {
    const bug = cfg({ bugs: { unclampedBackoff: true } });
    expect(backoffDelay(2, 'Moved', 59_950, 60_000, bug)).toBe(200);
    expect(backoffDelay(3, 'Moved', 61_000, 60_000, bug)).toBe(300);
    expect(backoffDelay(3, 'Migrating', 59_950, 60_000, bug)).toBe(2000);
  });
});

describe('mayAttempt (both bounds)', () => {
  const c = cfg({ maxAttempts: 3 });
  it.each([
    // attempt, now, deadline, allowed
    [1, 0, 60_000, true],
    [3, 0, 60_000, true],
    [4, 0, 60_000, false], // budget
    [2, 60_000, 60_000, false], // deadline (now < deadline is required)
    [2, 59_999, 60_000, true],
    [3, 10, null, true],
    [4, 10, null, false],
  ] as const)('attempt %i at %i, deadline %s → %s', (attempt, now, deadline, allowed) => {
    expect(mayAttempt(attempt, now, deadline, c)).toBe(allowed);
  });

  it('disableRetries gives a budget of one attempt', () => {
    const off = cfg({ maxAttempts: 5, disableRetries: true });
    expect(mayAttempt(1, 0, null, off)).toBe(true);
    expect(mayAttempt(2, 0, null, off)).toBe(false);
  });

  it('deadlineReplacesAttempts: the deadline alone bounds the loop, unless there is none', () => {
    const bug = cfg({ maxAttempts: 3, bugs: { deadlineReplacesAttempts: true } });
    expect(mayAttempt(50, 100, 60_000, bug)).toBe(true);
    expect(mayAttempt(50, 60_000, 60_000, bug)).toBe(false);
    expect(mayAttempt(4, 100, null, bug)).toBe(false);
    expect(mayAttempt(3, 100, null, bug)).toBe(true);
  });
});

describe('retriesAfterAttempt (tested after the refresh, so the final attempt refreshes too)', () => {
  it.each([
    // maxAttempts, disableRetries, attempt that just ended, now (after the refresh), deadline, sleep + retry?
    [3, false, 1, 0, 60_000, true],
    [3, false, 3, 0, 60_000, false], // the final attempt: refresh, then no sleep
    [1, false, 1, 0, 60_000, false], // maxAttempts 1
    [3, true, 1, 0, 60_000, false], // ZARIS_DISABLE_RETRIES
    [3, false, 1, 250, 200, false], // the refresh wait outlasted a short deadline
    [3, false, 2, 199, 200, true],
    [3, false, 2, 5_000, null, true],
  ] as const)('maxAttempts %i, disableRetries %s, after attempt %i at %i, deadline %s → %s', (maxAttempts, disableRetries, attempt, now, deadline, retry) => {
    expect(retriesAfterAttempt(attempt, now, deadline, cfg({ maxAttempts, disableRetries }))).toBe(retry);
  });
});

describe('exhaustedReason (which bound ended the loop)', () => {
  const c = cfg({ maxAttempts: 3 });
  it.each([
    // attempts made, last attempt ended at, now, deadline, deadline passed in a refresh wait, reason
    [3, 100, 100, 60_000, false, 'attemptsExhausted'],
    [3, 100, 70_000, 60_000, true, 'attemptsExhausted'], // the final attempt's refresh outlasted the deadline: the budget stopped the loop
    [3, 60_000, 60_000, 60_000, false, 'deadline'], // the final attempt ran into the deadline itself
    [2, 59_000, 60_000, 60_000, false, 'deadline'],
    [2, 59_000, 61_000, 60_000, true, 'waitBudget'],
    [3, 100, 100, null, false, 'attemptsExhausted'],
  ] as const)('%i attempt(s), last ended %i, now %i, deadline %s, in refresh wait %s → %s', (made, endedAt, now, deadline, inWait, reason) => {
    expect(exhaustedReason(made, endedAt, now, deadline, inWait, c)).toBe(reason);
  });

  it('with deadlineReplacesAttempts the budget is no bound when a deadline is set', () => {
    const bug = cfg({ maxAttempts: 3, bugs: { deadlineReplacesAttempts: true } });
    expect(exhaustedReason(40, 100, 60_000, 60_000, false, bug)).toBe('deadline');
    expect(exhaustedReason(3, 100, 100, null, false, bug)).toBe('attemptsExhausted');
  });
});

describe('attemptTimeout and operationDeadline', () => {
  it.each([
    // now, deadline, attemptTimeoutMs, expected
    [0, null, 1000, 1000],
    [0, 60_000, 1000, 1000],
    [59_500, 60_000, 1000, 500],
    [59_999, 60_000, 1000, 1],
    [60_000, 60_000, 1000, 0],
    [61_000, 60_000, 1000, 0],
  ] as const)('now %i, deadline %s, timeout %i → %i', (now, deadline, attemptTimeoutMs, expected) => {
    expect(attemptTimeout(now, deadline, cfg({ attemptTimeoutMs }))).toBe(expected);
  });

  it('deadline = start + operationTimeoutMs, or none when infinite', () => {
    expect(operationDeadline(250, cfg({ operationTimeoutMs: 60_000 }))).toBe(60_250);
    expect(operationDeadline(250, cfg({ operationTimeoutMs: 0 }))).toBe(250);
    expect(operationDeadline(250, cfg({ operationTimeoutMs: null }))).toBeNull();
  });
});
