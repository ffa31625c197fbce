/**
 * Delays between attempts and per-attempt timeouts (SPEC §5), measured twice:
 * from the `backoff` events and from the real gaps between attempt starts.
 * Data and map latencies are 0 so a gap between starts is exactly the delay.
 */
import { describe, expect, it } from 'vitest';
import type { KvStatus } from '../domain/status';
import { ZarisError } from './ZarisClient';
import { harness, reply, sequence, settle, startGaps, type EventLog, type HarnessOptions } from './testkit/harness';

const instant: HarnessOptions = { dataLatencyMs: 0, mapLatencyMs: 0 };

/** delayMs of each backoff event */
const delays = (log: EventLog) => log.of('backoff').map((e) => e.delayMs);

describe('delay = backoffMillis × attempt', () => {
  it.each([
    ['Unavailable', 4, [100, 200, 300]],
    ['Moved', 4, [100, 200, 300]],
    ['Migrating', 4, [800, 1600, 2000]], // ×8, then the 2 s cap
    ['Unavailable', 22, [...Array.from({ length: 19 }, (_, i) => 100 * (i + 1)), 2000, 2000]], // cap at 2 s
  ] as const)('always %s, maxAttempts %i → %j', async (status: KvStatus, maxAttempts, expected) => {
    const h = harness({
      ...instant,
      answer: () => reply(status),
      config: { maxAttempts, operationTimeoutMs: null, refreshDebounceMs: 0 },
    });
    await settle(h.sched, h.client.get('k'));
    expect(delays(h.log)).toEqual(expected);
    expect(startGaps(h.log)).toEqual(expected);
    expect(h.log.of('backoff').map((e) => e.attempt)).toEqual(expected.map((_, i) => i + 1));
  });

  it('×8 applies only after Migrating, by the attempt number', async () => {
    const h = harness({
      ...instant,
      answer: sequence(reply('Migrating'), reply('Unavailable'), reply('Migrating'), reply('Ok')),
      config: { maxAttempts: 4, backoffMillis: 50 },
    });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Ok' });
    expect(delays(h.log)).toEqual([400, 100, 1200]);
    expect(startGaps(h.log)).toEqual([400, 100, 1200]);
  });

  it('after a transport failure the delay is the plain one, carried with the error', async () => {
    const h = harness({ ...instant, answer: sequence({ silent: true }, reply('Ok')), config: { attemptTimeoutMs: 300 } });
    await settle(h.sched, h.client.get('k'));
    expect(h.log.of('backoff')).toMatchObject([{ t: 300, type: 'backoff', op: 1, attempt: 1, delayMs: 100, error: 'Timeout' }]);
  });

  it('the sleep follows the refresh: backoff.t is when the refresh ended', async () => {
    const h = harness({ answer: sequence(reply('Moved'), reply('Ok')), mapLatencyMs: 40, dataLatencyMs: 3 });
    await settle(h.sched, h.client.get('k'));
    expect(h.log.of('refresh.end')[0]?.t).toBe(43);
    expect(h.log.of('backoff')[0]).toMatchObject({ t: 43, delayMs: 100 });
    expect(h.log.of('attempt.start')[1]?.t).toBe(143);
  });
});

describe('no backoff after the final attempt', () => {
  it.each(['Moved', 'Migrating', 'Unavailable'] as const)('%s × maxAttempts: op ends when the last attempt ends', async (status) => {
    const h = harness({ ...instant, answer: () => reply(status), dataLatencyMs: 2 });
    await settle(h.sched, h.client.get('k'));
    expect(h.log.of('backoff').map((e) => e.attempt)).toEqual([1, 2]);
    const lastEnd = h.log.of('attempt.end').at(-1);
    expect(h.log.of('op.end')[0]?.t).toBe(lastEnd?.t);
    expect(h.log.events.at(-1)?.type).toBe('op.end');
  });
});

describe('clamped to the deadline', () => {
  it('the delay is clamped to the time left; the loop ends at the deadline', async () => {
    const h = harness({ ...instant, answer: () => reply('Unavailable'), config: { maxAttempts: 10, operationTimeoutMs: 250 } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Unavailable' });
    expect(delays(h.log)).toEqual([100, 150]);
    expect(startGaps(h.log)).toEqual([100]);
    // the second (clamped) sleep really lasted 150 ms: the loop ended exactly at the deadline
    expect((h.log.of('op.end')[0]?.t as number) - (h.log.of('backoff')[1]?.t as number)).toBe(150);
    expect(h.log.of('op.end')[0]).toMatchObject({ t: 250, attempts: 2, reason: 'deadline' });
  });

  it('no sleep at all when the refresh wait ran past the deadline (no attempt may follow)', async () => {
    const h = harness({ answer: () => reply('Moved'), mapLatencyMs: 200, config: { operationTimeoutMs: 100 } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Moved' });
    expect(h.log.of('backoff')).toHaveLength(0);
    expect(h.log.of('attempt.start')).toHaveLength(1);
    expect(h.log.of('op.end')[0]).toMatchObject({ t: 201, attempts: 1, reason: 'waitBudget' });
  });

  it('with bugs.unclampedBackoff the delay overshoots the deadline', async () => {
    const h = harness({
      ...instant,
      answer: () => reply('Unavailable'),
      config: { maxAttempts: 10, operationTimeoutMs: 250, bugs: { unclampedBackoff: true } },
    });
    await settle(h.sched, h.client.get('k'));
    expect(delays(h.log)).toEqual([100, 200]);
    expect(startGaps(h.log)).toEqual([100]);
    expect((h.log.of('op.end')[0]?.t as number) - (h.log.of('backoff')[1]?.t as number)).toBe(200);
    expect(h.log.of('op.end')[0]).toMatchObject({ t: 300, attempts: 2 });
  });
});

describe('per-attempt transport timeout', () => {
  it('equals attemptTimeoutMs, clamped to the remaining deadline near the end', async () => {
    const h = harness({
      ...instant,
      answer: () => ({ silent: true }),
      config: { maxAttempts: 10, attemptTimeoutMs: 1000, operationTimeoutMs: 2500 },
    });
    const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarisError);
    expect(error).toMatchObject({ code: 'Timeout', attempts: 3 });
    const sent = h.transport.dataRequests;
    // 0 → times out at 1000, backoff 100; 1100 → 2100, backoff 200; 2300 → only 200 ms left
    expect(sent.map((s) => [s.t, s.timeoutMs])).toEqual([
      [0, 1000],
      [1100, 1000],
      [2300, 200],
    ]);
    expect(h.log.of('attempt.end').map((e) => e.latencyMs)).toEqual([1000, 1000, 200]);
    expect(h.log.of('op.end')[0]).toMatchObject({ t: 2500, error: 'Timeout', reason: 'deadline' });
  });

  it('is attemptTimeoutMs on every attempt when there is no deadline', async () => {
    const h = harness({ ...instant, answer: () => ({ silent: true }), config: { attemptTimeoutMs: 450, operationTimeoutMs: null } });
    await settle(h.sched, h.client.get('k')).catch(() => undefined);
    expect(h.transport.dataRequests.map((s) => s.timeoutMs)).toEqual([450, 450, 450]);
  });
});
