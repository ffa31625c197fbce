import { describe, expect, it } from 'vitest';
import { TRANSPORT_ERRORS, type KvStatus } from '../domain/status';
import { TransportFailure } from './transport';
import { ZarisClient, ZarisError } from './ZarisClient';
import { byNode, harness, mapWith, NO_OWNER, reply, sequence, settle } from './testkit/harness';

const REFRESH_FIRST: readonly KvStatus[] = ['Moved', 'ReplicaWriteRejected', 'OwnershipChanging'];
const NO_REFRESH: readonly KvStatus[] = ['Unavailable', 'Migrating'];

describe('retryable statuses, end to end', () => {
  it.each([...REFRESH_FIRST.map((s) => [s, true] as const), ...NO_REFRESH.map((s) => [s, false] as const)])(
    'always %s: 3 data requests, map fetched after each attempt (the final one too): %s',
    async (status, refreshes) => {
      // debounce off so that every refresh request really fetches
      const h = harness({ answer: () => reply(status), config: { refreshDebounceMs: 0 } });
      await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status });
      const data = h.transport.dataRequests;
      const maps = h.transport.mapRequests;
      expect(data).toHaveLength(3);
      expect(maps).toHaveLength(refreshes ? 3 : 0);
      expect(h.log.of('refresh.request').map((e) => e.cause)).toEqual(refreshes ? [status, status, status] : []);
      if (refreshes) {
        // each fetch lies between the failed attempt and the next one
        for (let i = 0; i < 2; i++) {
          expect(maps[i]?.t).toBeGreaterThan(data[i]?.t as number);
          expect(maps[i]?.t).toBeLessThan(data[i + 1]?.t as number);
        }
        // the final attempt refreshes too (the seed awaits onMoved before the loop condition), then no sleep
        expect(maps[2]?.t).toBeGreaterThan(data[2]?.t as number);
        expect(h.log.of('backoff')).toHaveLength(2);
      }
      expect(h.log.of('op.end')[0]).toMatchObject({ status, attempts: 3, reason: 'attemptsExhausted' });
    },
  );

  it.each(TRANSPORT_ERRORS.map((e) => [e] as const))(
    'always a %s transport failure: refresh after each attempt (the final one too), then that error is rethrown',
    async (code) => {
      const h = harness({ answer: () => ({ fail: new TransportFailure(code) }), config: { refreshDebounceMs: 0 } });
      const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ZarisError);
      expect(error).toMatchObject({ code, attempts: 3 });
      expect((error as ZarisError).cause).toBeInstanceOf(TransportFailure);
      expect(h.transport.dataRequests).toHaveLength(3);
      expect(h.transport.mapRequests).toHaveLength(3);
      expect(h.log.of('refresh.request').map((e) => e.cause)).toEqual([code, code, code]);
      expect(h.log.of('backoff')).toHaveLength(2);
      expect(h.log.of('op.end')[0]).toMatchObject({ error: code, attempts: 3, reason: 'attemptsExhausted' });
    },
  );
});

describe('real answers come back after one attempt', () => {
  it.each(['Ok', 'NotFound', 'Conflict'] as const)('%s', async (status) => {
    const h = harness({ answer: () => reply(status) });
    await expect(settle(h.sched, h.client.put('k', 'v', { ifMatchVersion: 3 }))).resolves.toEqual({ status });
    expect(h.transport.dataRequests).toHaveLength(1);
    expect(h.transport.mapRequests).toHaveLength(0);
    expect(h.log.of('backoff')).toHaveLength(0);
  });

  it('value and version are handed back', async () => {
    const h = harness({ answer: () => ({ reply: { status: 'Ok', value: 'v1', version: 7 } }) });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Ok', value: 'v1', version: 7 });
  });

  it('with bugs.retryConflict, Conflict is retried (no refresh) but NotFound is not', async () => {
    const c = harness({ answer: () => reply('Conflict'), config: { bugs: { retryConflict: true } } });
    await expect(settle(c.sched, c.client.put('k', 'v', { ifAbsent: true }))).resolves.toEqual({ status: 'Conflict' });
    expect(c.transport.dataRequests).toHaveLength(3);
    expect(c.transport.mapRequests).toHaveLength(0);

    const n = harness({ answer: () => reply('NotFound'), config: { bugs: { retryConflict: true } } });
    await expect(settle(n.sched, n.client.get('k'))).resolves.toEqual({ status: 'NotFound' });
    expect(n.transport.dataRequests).toHaveLength(1);
  });
});

describe('non-retryable exceptions are rethrown after exactly one attempt', () => {
  const boom = new Error('boom');
  it.each([
    ['an Error from the transport callback', boom],
    ['a string from the transport callback', 'nope'],
    ['a look-alike of a transport failure', { code: 'Timeout' }],
  ] as const)('%s', async (_name, thrown) => {
    const h = harness({ answer: () => ({ fail: thrown }) });
    const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
    expect(error).toBe(thrown);
    expect(h.transport.dataRequests).toHaveLength(1);
    expect(h.transport.mapRequests).toHaveLength(0);
    expect(h.log.of('refresh.request')).toHaveLength(0);
    expect(h.log.of('op.end')[0]).toMatchObject({ error: 'NonRetryable', attempts: 1, reason: 'nonRetryable' });
  });

  it('an Error thrown synchronously by transport.send', async () => {
    const h = harness({
      answer: () => {
        throw boom;
      },
    });
    const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
    expect(error).toBe(boom);
    expect(h.transport.dataRequests).toHaveLength(1);
    expect(h.transport.mapRequests).toHaveLength(0);
    expect(h.log.of('attempt.start')).toHaveLength(1);
  });
});

describe('refresh before retry reroutes to the refreshed owner', () => {
  it.each(REFRESH_FIRST.map((s) => [s] as const))('%s from node 0 → next attempt to node 1', async (status) => {
    const h = harness({ answer: byNode({ 0: reply(status) }) });
    await expect(settle(h.sched, h.client.put('k', 'v'))).resolves.toEqual({ status: 'Ok' });
    expect(h.transport.dataRequests.map((r) => r.node)).toEqual([0, 1]);
    expect(h.transport.dataRequests.map((r) => r.request.type === 'data' && r.request.epoch)).toEqual([1, 2]);
    expect(h.log.of('attempt.start').map((e) => [e.node, e.epoch])).toEqual([
      [0, 1],
      [1, 2],
    ]);
    expect(h.client.map.epoch).toBe(2);
  });

  it.each(NO_REFRESH.map((s) => [s] as const))('%s: retried on the same node without a fetch', async (status) => {
    const h = harness({ answer: sequence(reply(status), reply('Ok')) });
    await expect(settle(h.sched, h.client.put('k', 'v'))).resolves.toEqual({ status: 'Ok' });
    expect(h.transport.dataRequests.map((r) => r.node)).toEqual([0, 0]);
    expect(h.transport.mapRequests).toHaveLength(0);
  });

  it('a silent node yields Timeout and a refresh', async () => {
    const h = harness({ answer: byNode({ 0: { silent: true } }), config: { attemptTimeoutMs: 700 } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Ok' });
    expect(h.log.of('attempt.end')[0]).toMatchObject({ node: 0, error: 'Timeout', latencyMs: 700, t: 700 });
    expect(h.log.of('refresh.request')[0]).toMatchObject({ cause: 'Timeout' });
    expect(h.transport.mapRequests).toHaveLength(1);
    expect(h.transport.dataRequests.map((r) => r.node)).toEqual([0, 1]);
  });
});

describe('PartitionUnavailable is raised locally', () => {
  it('no owner in the map: no data request, a refresh, then the retry succeeds', async () => {
    const h = harness({ initialMap: mapWith(1, NO_OWNER), mapOf: () => mapWith(2, 2) });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Ok' });
    expect(h.log.of('attempt.start').map((e) => e.node)).toEqual([null, 2]);
    expect(h.log.of('attempt.end')[0]).toMatchObject({ node: null, error: 'PartitionUnavailable', latencyMs: 0 });
    expect(h.log.of('refresh.request')[0]).toMatchObject({ cause: 'PartitionUnavailable' });
    // the map was fetched before any data request was sent
    expect(h.transport.sent.map((s) => s.request.type)).toEqual(['map', 'data']);
    expect(h.transport.dataRequests.map((r) => r.node)).toEqual([2]);
  });

  it('still no owner after refreshing: rejects with PartitionUnavailable, nothing sent', async () => {
    const h = harness({ initialMap: mapWith(1, NO_OWNER), mapOf: () => mapWith(2, NO_OWNER), config: { refreshDebounceMs: 0 } });
    const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarisError);
    expect(error).toMatchObject({ code: 'PartitionUnavailable', attempts: 3 });
    expect(h.transport.dataRequests).toHaveLength(0);
  });

  it('a client without an initial map fetches one on its first operation', async () => {
    const h = harness();
    const fresh = new ZarisClient({
      scheduler: h.sched,
      transport: h.transport,
      seedNodes: [1],
      segmentCount: 64,
    });
    expect(fresh.map.epoch).toBe(0);
    await expect(settle(h.sched, fresh.get('k'))).resolves.toEqual({ status: 'Ok' });
    expect(h.transport.sent.map((s) => [s.request.type, s.node])).toEqual([
      ['map', 1],
      ['data', 1],
    ]);
  });
});

describe('no attempt could run', () => {
  it('operationTimeoutMs 0 → rejects with Timeout, attempts 0, op.end reason deadline', async () => {
    const h = harness({ config: { operationTimeoutMs: 0 } });
    const error = await settle(h.sched, h.client.get('k')).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ZarisError);
    expect(error).toMatchObject({ code: 'Timeout', attempts: 0 });
    expect(h.transport.sent).toHaveLength(0);
    expect(h.log.of('attempt.start')).toHaveLength(0);
    expect(h.log.of('op.end')[0]).toMatchObject({ error: 'Timeout', attempts: 0, reason: 'deadline', latencyMs: 0 });
  });
});
