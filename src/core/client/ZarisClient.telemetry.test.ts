/** The client's events (SPEC §9): every field of a retried operation, and no sink at all. */
import { describe, expect, it } from 'vitest';
import { TransportFailure } from './transport';
import { byNode, harness, KEY_SEGMENT, reply, sequence, settle } from './testkit/harness';

describe('events of a retried operation', () => {
  it('Moved → refresh → Migrating → Ok: the whole stream', async () => {
    const h = harness({
      answer: sequence(reply('Moved'), reply('Migrating'), { reply: { status: 'Ok', version: 5 } }),
      dataLatencyMs: 1,
      mapLatencyMs: 5,
    });
    await expect(settle(h.sched, h.client.put('k', 'v', { ifMatchVersion: 4 }))).resolves.toEqual({ status: 'Ok', version: 5 });
    expect(h.log.events).toMatchObject([
      { t: 0, type: 'op.start', op: 1, kind: 'put', key: 'k', segment: KEY_SEGMENT, cond: { ifMatchVersion: 4 } },
      { t: 0, type: 'attempt.start', op: 1, attempt: 1, node: 0, epoch: 1 },
      { t: 1, type: 'attempt.end', op: 1, attempt: 1, node: 0, status: 'Moved', latencyMs: 1 },
      { t: 1, type: 'refresh.request', op: 1, cause: 'Moved' },
      { t: 1, type: 'refresh.start', refresh: 1, op: 1 },
      { t: 6, type: 'refresh.end', refresh: 1, ok: true, epochBefore: 1, epochAfter: 2, node: 0, fetches: 1 },
      { t: 6, type: 'backoff', op: 1, attempt: 1, delayMs: 100, status: 'Moved' },
      { t: 106, type: 'attempt.start', op: 1, attempt: 2, node: 1, epoch: 2 },
      { t: 107, type: 'attempt.end', op: 1, attempt: 2, node: 1, status: 'Migrating', latencyMs: 1 },
      { t: 107, type: 'backoff', op: 1, attempt: 2, delayMs: 1600, status: 'Migrating' },
      { t: 1707, type: 'attempt.start', op: 1, attempt: 3, node: 1, epoch: 2 },
      { t: 1708, type: 'attempt.end', op: 1, attempt: 3, node: 1, status: 'Ok', latencyMs: 1 },
      { t: 1708, type: 'op.end', op: 1, status: 'Ok', attempts: 3, latencyMs: 1708, version: 5, reason: 'success' },
    ]);
  });

  it('a transport failure is carried as `error` (never as `status`)', async () => {
    const h = harness({ answer: byNode({ 0: { fail: new TransportFailure('NodeUnavailable'), afterMs: 4 } }), mapLatencyMs: 2 });
    await settle(h.sched, h.client.get('k'));
    const failed = h.log.of('attempt.end')[0];
    expect(failed).toMatchObject({ t: 4, type: 'attempt.end', op: 1, attempt: 1, node: 0, error: 'NodeUnavailable', latencyMs: 4 });
    // every attempt.end has one shape (absent fields undefined); the stream's JSON has no status
    expect(failed?.status).toBeUndefined();
    expect(JSON.parse(JSON.stringify(failed))).not.toHaveProperty('status');
    const backoff = h.log.of('backoff')[0];
    expect(backoff).toMatchObject({ t: 6, type: 'backoff', op: 1, attempt: 1, delayMs: 100, error: 'NodeUnavailable' });
    expect(backoff?.status).toBeUndefined();
    expect(JSON.parse(JSON.stringify(backoff))).not.toHaveProperty('status');
    expect(h.log.of('refresh.request')[0]).toMatchObject({ t: 4, type: 'refresh.request', op: 1, cause: 'NodeUnavailable' });
    expect(h.log.of('op.start')[0]?.cond).toBeUndefined();
    expect(JSON.parse(JSON.stringify(h.log.of('op.start')[0]))).not.toHaveProperty('cond');
  });

  it('a failed operation ends with its error and attempt count', async () => {
    const h = harness({ answer: () => ({ fail: new TransportFailure('Socket') }) });
    await settle(h.sched, h.client.get('k')).catch(() => undefined);
    const end = h.log.of('op.end')[0];
    expect(end).toMatchObject({ op: 1, error: 'Socket', attempts: 3, reason: 'attemptsExhausted' });
    expect(end?.status).toBeUndefined();
    expect(JSON.parse(JSON.stringify(end))).not.toHaveProperty('status');
    expect(end?.latencyMs).toBe(end?.t);
  });

  it('concurrent operations get distinct op ids and every event names its op', async () => {
    let bSeen = 0;
    const h = harness({ answer: (_node, request) => (request.type === 'data' && request.key === 'b' && bSeen++ === 0 ? reply('Unavailable') : reply('Ok')) });
    const pa = h.client.get('a');
    const pb = h.client.delete('b', { ifAbsent: true });
    await settle(h.sched, Promise.all([pa, pb]));
    const starts = h.log.of('op.start');
    expect(starts.map((e) => [e.op, e.key, e.kind])).toEqual([
      [1, 'a', 'get'],
      [2, 'b', 'delete'],
    ]);
    expect(h.log.of('attempt.start').filter((e) => e.op === 2)).toHaveLength(2);
    expect(h.log.of('attempt.start').filter((e) => e.op === 1)).toHaveLength(1);
    expect(h.log.of('backoff').map((e) => e.op)).toEqual([2]);
    expect(h.transport.dataRequests.map((r) => r.request.type === 'data' && r.request.op)).toEqual([1, 2, 2]);
  });

  it('the execute callback API reports the op id and the same facts', () => {
    const h = harness({ answer: sequence(reply('Unavailable'), reply('NotFound')) });
    let result: unknown;
    const op = h.client.execute({ kind: 'get', key: 'k', vu: 7 }, (r) => (result = r));
    h.sched.runUntilIdle();
    expect(op).toBe(1);
    expect(result).toMatchObject({ op: 1, status: 'NotFound', attempts: 2, latencyMs: 102, reason: 'realAnswer' });
    expect(h.log.of('op.start')[0]).toMatchObject({ vu: 7 });
  });
});

describe('no sink', () => {
  it('the client works without a sink', async () => {
    const h = harness({ sink: false, answer: byNode({ 0: reply('Moved') }) });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Ok' });
    expect(h.transport.sent.map((s) => [s.request.type, s.node])).toEqual([
      ['data', 0],
      ['map', 0],
      ['data', 1],
    ]);
    expect(h.log.events).toHaveLength(0);
  });

  it('detaching the sink mid-operation stops every event (client and refresher)', async () => {
    const h = harness({ answer: byNode({ 0: reply('Moved') }) });
    const p = h.client.get('k');
    expect(h.log.of('attempt.start')).toHaveLength(1);
    h.client.sink = undefined;
    const before = h.log.events.length;
    await settle(h.sched, p);
    expect(h.log.events).toHaveLength(before);
    expect(h.transport.dataRequests).toHaveLength(2);
  });
});
