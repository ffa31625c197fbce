/** The two bounds of the retry loop (SPEC §5, §8): attempts and deadline, and the storm bug. */
import { describe, expect, it } from 'vitest';
import { resolveClientConfig } from './config';
import { TransportFailure } from './transport';
import { ZarisClient, ZarisError } from './ZarisClient';
import { harness, mapWith, NO_OWNER, reply, sequence, settle, startGaps } from './testkit/harness';

describe('attempt budget', () => {
  it.each([1, 2, 3, 5])('maxAttempts %i with the 60 s deadline: exactly that many attempts', async (maxAttempts) => {
    const h = harness({ answer: () => reply('Unavailable'), config: { maxAttempts, operationTimeoutMs: 60_000 } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Unavailable' });
    expect(h.transport.dataRequests).toHaveLength(maxAttempts);
    expect(h.log.of('attempt.start').map((e) => e.attempt)).toEqual(Array.from({ length: maxAttempts }, (_, i) => i + 1));
    const end = h.log.of('op.end')[0];
    expect(end).toMatchObject({ attempts: maxAttempts, reason: 'attemptsExhausted' });
    expect(end?.t).toBeLessThan(60_000);
  });

  it('3× Moved: the last result is returned, reason attemptsExhausted', async () => {
    const h = harness({ answer: () => reply('Moved') });
    await expect(settle(h.sched, h.client.delete('k'))).resolves.toEqual({ status: 'Moved' });
    expect(h.log.of('op.end')[0]).toMatchObject({ status: 'Moved', attempts: 3, reason: 'attemptsExhausted' });
  });

  it('3× NodeUnavailable: the last retryable exception is rethrown', async () => {
    const h = harness({ answer: () => ({ fail: new TransportFailure('NodeUnavailable') }) });
    const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarisError);
    expect(error).toMatchObject({ code: 'NodeUnavailable', attempts: 3 });
  });

  it('the last attempt wins even if earlier ones differed', async () => {
    const h = harness({ answer: sequence(reply('Moved'), reply('Migrating'), reply('Unavailable')) });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Unavailable' });
  });
});

describe('deadline', () => {
  it('with a large budget, the deadline stops the loop (attempts 4, op.end at the deadline)', async () => {
    const h = harness({ answer: () => reply('Unavailable'), config: { maxAttempts: 1000, operationTimeoutMs: 1000 } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Unavailable' });
    // starts at 0, 101, 302, 603 (1 ms latency + 100·n backoff); the 4th backoff is clamped to 1000
    expect(h.log.of('attempt.start').map((e) => e.t)).toEqual([0, 101, 302, 603]);
    const end = h.log.of('op.end')[0];
    expect(end).toMatchObject({ attempts: 4, reason: 'deadline', t: 1000, latencyMs: 1000 });
  });

  it('an operation started later gets its own deadline', async () => {
    const h = harness({ answer: () => reply('Unavailable'), config: { maxAttempts: 1000, operationTimeoutMs: 1000 } });
    h.sched.advance(5000);
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Unavailable' });
    expect(h.log.of('op.end')[0]).toMatchObject({ attempts: 4, t: 6000 });
  });
});

describe('bugs.deadlineReplacesAttempts (the refresh storm)', () => {
  it('maxAttempts 3 with the 60 s deadline keeps retrying (and refreshing) until the deadline', async () => {
    const h = harness({
      answer: () => reply('Moved'),
      config: { maxAttempts: 3, operationTimeoutMs: 60_000, bugs: { deadlineReplacesAttempts: true } },
    });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Moved' });
    const starts = h.log.of('attempt.start');
    expect(starts.length).toBeGreaterThan(20);
    expect(starts.at(-1)?.t).toBeLessThan(60_000);
    expect(starts.at(-1)?.attempt).toBe(starts.length);
    expect(h.transport.mapRequests.length).toBeGreaterThan(20);
    const end = h.log.of('op.end')[0];
    expect(end?.attempts).toBe(starts.length);
    expect(end?.t).toBeGreaterThanOrEqual(59_000);
    expect(end?.t).toBeLessThanOrEqual(60_000);
  });

  it('the same operation without the bug makes 3 attempts', async () => {
    const h = harness({ answer: () => reply('Moved'), config: { maxAttempts: 3, operationTimeoutMs: 60_000 } });
    await settle(h.sched, h.client.get('k'));
    expect(h.log.of('attempt.start')).toHaveLength(3);
  });

  it.each([
    ['the refresh debounced', { mapLatencyMs: 1 }],
    ['a wait budget of 0 (the refresh still in flight)', { mapLatencyMs: 5000, config: { refreshWaitBudgetMs: 0 } }],
  ] as const)('backoffMillis 0, no owner in the map, %s: the loop still ends at its deadline (1 ms between attempts), not an endless storm at one instant', async (_, o) => {
    // every attempt fails locally (PartitionUnavailable, 0 ms) and the refresh returns at once:
    // with 0 ms sleeps virtual time never reached the deadline (the scheduler's guard stopped the run)
    const h = harness({
      initialMap: mapWith(1, NO_OWNER),
      mapOf: () => mapWith(2, NO_OWNER),
      maxTimersAtOneInstant: 10_000,
      ...('mapLatencyMs' in o ? { mapLatencyMs: o.mapLatencyMs } : {}),
      config: { maxAttempts: 3, operationTimeoutMs: 50, backoffMillis: 0, ...('config' in o ? o.config : {}), bugs: { deadlineReplacesAttempts: true } },
    });
    const result = h.client.get('k').catch((e: unknown) => e);
    h.sched.advanceTo(10_000); // (guarded against a stuck instant, unlike runUntilIdle)
    expect(await result).toMatchObject({ code: 'PartitionUnavailable' });
    const starts = h.log.of('attempt.start');
    expect(starts.length).toBeGreaterThan(3); // the storm: beyond the budget of 3
    expect(starts.length).toBeLessThanOrEqual(51);
    expect(startGaps(h.log).every((g) => g >= 1)).toBe(true);
    expect(h.log.of('op.end')[0]).toMatchObject({ t: 50, attempts: starts.length, reason: 'deadline' });
    // the floor applies where the attempt and its refresh took no time; an attempt whose refresh took 1 ms keeps the rule's 0 ms
    const startedAt = new Map(starts.map((e) => [e.attempt, e.t]));
    const delays = h.log.of('backoff').map((b) => [b.delayMs, startedAt.get(b.attempt) === b.t ? Math.min(1, 50 - b.t) : 0]);
    expect(delays.map(([got]) => got)).toEqual(delays.map(([, want]) => want));
    expect(delays.some(([got]) => got === 1)).toBe(true);
  });

  it('with no deadline (infinite) the budget bounds the loop again', async () => {
    const h = harness({
      answer: () => reply('Moved'),
      config: { maxAttempts: 3, operationTimeoutMs: null, bugs: { deadlineReplacesAttempts: true } },
    });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Moved' });
    expect(h.log.of('attempt.start')).toHaveLength(3);
  });
});

describe('disableRetries', () => {
  it('config disableRetries: exactly one attempt and no backoff, but the wrong-node answer still refreshes the map', async () => {
    const h = harness({ answer: () => reply('Moved'), config: { maxAttempts: 5, disableRetries: true } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Moved' });
    expect(h.transport.dataRequests).toHaveLength(1);
    expect(h.transport.mapRequests).toHaveLength(1);
    expect(h.log.of('backoff')).toHaveLength(0);
    expect(h.log.of('refresh.request')).toMatchObject([{ op: 1, cause: 'Moved' }]);
    expect(h.log.of('op.end')[0]).toMatchObject({ attempts: 1, reason: 'attemptsExhausted' });
  });

  it.each([
    ['true', 1],
    ['TRUE', 1],
    ['false', 3],
  ] as const)('ZARIS_DISABLE_RETRIES=%s via resolveClientConfig → %i attempt(s)', async (value, attempts) => {
    const h = harness({ answer: () => reply('Unavailable') });
    const client = new ZarisClient({
      scheduler: h.sched,
      transport: h.transport,
      seedNodes: [0],
      segmentCount: 64,
      initialMap: mapWith(1, 0),
      config: resolveClientConfig({}, { ZARIS_DISABLE_RETRIES: value }),
    });
    await expect(settle(h.sched, client.get('k'))).resolves.toEqual({ status: 'Unavailable' });
    expect(h.transport.dataRequests).toHaveLength(attempts);
  });
});
