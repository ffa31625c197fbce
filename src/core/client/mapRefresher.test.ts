/** One refresh, not a thundering herd (SPEC §6), driven through a client's refresher. */
import { describe, expect, it } from 'vitest';
import type { RefreshWaitOutcome } from './mapRefresher';
import { harness, mapWith, reply, sequence, settle, type HarnessOptions } from './testkit/harness';

/** a harness plus a recorder of each caller's wait outcome (with the time it came) */
function setup(options: HarnessOptions = {}) {
  const h = harness(options);
  const outcomes = new Map<number, [RefreshWaitOutcome, number]>();
  const ask = (op: number) => h.client.refreshes.request(op, 'Moved', (o) => outcomes.set(op, [o, h.sched.now()]));
  return { ...h, outcomes, ask };
}

describe('coalescing', () => {
  it('50 concurrent operations hitting Moved cause exactly one map fetch', async () => {
    const h = setup({ answer: (node) => reply(node === 0 ? 'Moved' : 'Ok') });
    const ops = Array.from({ length: 50 }, () => h.client.get('k'));
    await settle(h.sched, Promise.all(ops)).then((rs) => expect(rs.every((r) => r.status === 'Ok')).toBe(true));
    expect(h.transport.mapRequests).toHaveLength(1);
    expect(h.log.of('refresh.request')).toHaveLength(50);
    const [start] = h.log.of('refresh.start');
    expect(h.log.of('refresh.start')).toHaveLength(1);
    const riders = h.log.of('refresh.coalesced');
    expect(riders).toHaveLength(49);
    expect(riders.every((e) => e.refresh === start?.refresh)).toBe(true);
    expect(new Set([start?.op, ...riders.map((e) => e.op)]).size).toBe(50);
    // every second attempt went to the refreshed owner
    expect(h.transport.dataRequests.slice(50).every((r) => r.node === 1)).toBe(true);
  });

  it('riders all get "refreshed" when the shared refresh ends', () => {
    const h = setup({ mapLatencyMs: 30 });
    for (let op = 1; op <= 5; op++) h.ask(op);
    h.sched.runUntilIdle();
    expect([...h.outcomes.values()]).toEqual(Array.from({ length: 5 }, () => ['refreshed', 30]));
    expect(h.transport.mapRequests).toHaveLength(1);
  });

  it('bugs.noRefreshCoalescing: one fetch per caller', () => {
    const h = setup({ config: { bugs: { noRefreshCoalescing: true } } });
    for (let op = 1; op <= 50; op++) h.ask(op);
    h.sched.runUntilIdle();
    expect(h.transport.mapRequests).toHaveLength(50);
    expect(h.log.of('refresh.coalesced')).toHaveLength(0);
    expect(h.log.of('refresh.start')).toHaveLength(50);
  });
});

describe('debounce', () => {
  it('within 500 ms of a successful refresh: debounced, no fetch; at 500 ms: fetched', () => {
    const h = setup({ mapLatencyMs: 5 });
    h.ask(1);
    h.sched.advance(5); // the refresh ends at 5
    expect(h.outcomes.get(1)).toEqual(['refreshed', 5]);
    h.sched.advance(499);
    h.ask(2);
    expect(h.outcomes.get(2)).toEqual(['debounced', 504]);
    expect(h.log.of('refresh.debounced')).toMatchObject([{ t: 504, op: 2, sinceLastMs: 499 }]);
    expect(h.transport.mapRequests).toHaveLength(1);
    h.sched.advance(1);
    h.ask(3);
    h.sched.runUntilIdle();
    expect(h.outcomes.get(3)).toEqual(['refreshed', 510]);
    expect(h.transport.mapRequests).toHaveLength(2);
  });

  it('bugs.noRefreshDebounce: a refresh right after another still fetches', () => {
    const h = setup({ mapLatencyMs: 5, config: { bugs: { noRefreshDebounce: true } } });
    h.ask(1);
    h.sched.advance(6);
    expect(h.outcomes.get(1)).toEqual(['refreshed', 5]);
    h.ask(2);
    h.sched.advance(5);
    expect(h.outcomes.get(2)).toEqual(['refreshed', 11]);
    expect(h.transport.mapRequests).toHaveLength(2);
    expect(h.log.of('refresh.debounced')).toHaveLength(0);
  });

  it('a failed refresh (every candidate times out) is not debounced afterwards', () => {
    const h = setup({ mapOf: () => null, config: { attemptTimeoutMs: 1000 } });
    h.ask(1);
    h.sched.advanceTo(3000);
    expect(h.outcomes.get(1)).toEqual(['failed', 3000]);
    expect(h.log.of('refresh.end')).toMatchObject([{ t: 3000, ok: false, node: null, fetches: 3, epochBefore: 1, epochAfter: 1 }]);
    expect(h.transport.mapRequests.map((r) => r.node)).toEqual([0, 1, 2]);
    h.ask(2);
    expect(h.log.of('refresh.debounced')).toHaveLength(0);
    expect(h.log.of('refresh.start')).toHaveLength(2);
    expect(h.transport.mapRequests).toHaveLength(4);
  });
});

describe('wait budget', () => {
  it('a caller stops waiting at exactly the budget; the refresh completes for the others', () => {
    const h = setup({ mapLatencyMs: 1000, config: { refreshWaitBudgetMs: 100 } });
    h.ask(1);
    h.sched.advance(50);
    h.ask(2);
    h.sched.advance(900);
    h.ask(3);
    h.sched.runUntilIdle();
    expect(h.outcomes.get(1)).toEqual(['abandoned', 100]);
    expect(h.outcomes.get(2)).toEqual(['abandoned', 150]);
    expect(h.outcomes.get(3)).toEqual(['refreshed', 1000]);
    expect(h.log.of('refresh.waitAbandoned')).toMatchObject([
      { t: 100, type: 'refresh.waitAbandoned', op: 1, refresh: 1, waitedMs: 100 },
      { t: 150, type: 'refresh.waitAbandoned', op: 2, refresh: 1, waitedMs: 100 },
    ]);
    expect(h.log.of('refresh.end')).toMatchObject([{ t: 1000, refresh: 1, ok: true, epochAfter: 2 }]);
    expect(h.client.map.epoch).toBe(2);
    expect(h.transport.mapRequests).toHaveLength(1);
  });

  it('the abandoning operation goes on (on its old map) while the refresh is still running', async () => {
    const h = setup({ answer: sequence(reply('Moved'), reply('Ok')), mapLatencyMs: 1000, config: { refreshWaitBudgetMs: 100 } });
    await expect(settle(h.sched, h.client.get('k'))).resolves.toEqual({ status: 'Ok' });
    expect(h.log.of('refresh.waitAbandoned')).toMatchObject([{ t: 101, op: 1, waitedMs: 100 }]);
    expect(h.log.of('attempt.start').map((e) => [e.t, e.node])).toEqual([
      [0, 0],
      [201, 0],
    ]);
    const opEnd = h.log.of('op.end')[0];
    const refreshEnd = h.log.of('refresh.end')[0];
    expect(opEnd?.t).toBe(202);
    expect(refreshEnd).toMatchObject({ t: 1001, ok: true });
  });
});

describe('the shared slot', () => {
  it('compare-and-clear: an older refresh finishing does not clear a newer one', () => {
    const h = setup({ mapLatencyMs: 100, config: { bugs: { noRefreshCoalescing: true } } });
    h.ask(1); // refresh A: 0 → 100
    const a = h.client.refreshes.activeRefreshId;
    h.sched.advance(10);
    h.transport.mapLatencyMs = 500;
    h.ask(2); // refresh B: 10 → 510
    const b = h.client.refreshes.activeRefreshId;
    expect(b).not.toBe(a);
    h.sched.advanceTo(100);
    expect(h.outcomes.get(1)).toEqual(['refreshed', 100]);
    expect(h.client.refreshes.activeRefreshId).toBe(b);
    expect(h.client.refreshes.inFlight).toBe(true);
    h.sched.advanceTo(510);
    expect(h.client.refreshes.activeRefreshId).toBeNull();
    expect(h.client.refreshes.inFlight).toBe(false);
  });

  it('a failed fetch moves on to the next candidate, which is then kept', () => {
    const h = setup({ mapOf: (node) => (node === 0 ? null : mapWith(2, 1)), config: { attemptTimeoutMs: 1000 } });
    h.ask(1);
    h.sched.runUntilIdle();
    expect(h.log.of('refresh.end')).toMatchObject([{ t: 1005, ok: true, node: 1, fetches: 2 }]);
    h.sched.advance(1000);
    h.ask(2);
    h.sched.runUntilIdle();
    expect(h.transport.mapRequests.map((r) => r.node)).toEqual([0, 1, 1]);
    expect(h.transport.mapRequests.map((r) => r.timeoutMs)).toEqual([1000, 1000, 1000]);
  });

  it('an older map (lower epoch) is not adopted', () => {
    const h = setup({ initialMap: mapWith(5, 0), mapOf: () => mapWith(3, 1) });
    h.ask(1);
    h.sched.runUntilIdle();
    expect(h.client.map.epoch).toBe(5);
    expect(h.log.of('refresh.end')).toMatchObject([{ epochBefore: 5, epochAfter: 5 }]);
  });

  it('connect() reports whether a map was fetched', () => {
    const h = setup();
    const got: boolean[] = [];
    h.client.connect((ok) => got.push(ok));
    h.sched.runUntilIdle();
    expect(got).toEqual([true]);
    expect(h.log.of('refresh.request')).toMatchObject([{ op: null, cause: 'connect' }]);
  });
});
