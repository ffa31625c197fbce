/**
 * The server behaviours issue 11 added, end to end (the real client against
 * the simulated cluster): a node that knows a segment has no reachable owner
 * answers Unavailable and the client retries it without a refresh; a
 * one-way partition; a garbled reply becomes a Transport error.
 */
import { describe, expect, it } from 'vitest';
import type { OpResult } from '../client/ZarisClient';
import { segmentOf } from '../domain/segment';
import { KvStatus, TransportErrorCode } from '../domain/status';
import { Recorder } from './testkit/recorder';
import { SimEngine } from './engine';
import { loadScenario, type ScenarioInput } from './scenario';
import { runScenario } from './runScenario';

const quiet: ScenarioInput = {
  name: 'e2e',
  seed: 1,
  durationMs: 30_000,
  cluster: { nodes: 3, segments: 3, replicas: 1, jitterMs: 0 },
  client: { maxAttempts: 40, backoffMillis: 100 },
  // one user with a long think time: the client's map stays as old as the test wants
  workload: { concurrency: 1, thinkMs: 1_000_000, keys: 1, mix: { get: 1, put: 0, delete: 0, cas: 0, createOnce: 0 } },
};

function engine(input: ScenarioInput = quiet) {
  const rec = new Recorder();
  const e = new SimEngine(loadScenario(input), { sinks: [rec] });
  e.runTo(100);
  return { e, rec };
}

/** a key in segment `s` of the 3-segment cluster */
function keyIn(s: number): string {
  for (let i = 0; ; i++) if (segmentOf(`key${i}`, 3) === s) return `key${i}`;
}

describe('Unavailable, end to end', () => {
  it('a replica whose owner crashed answers a write Unavailable; the client backs off and retries without a refresh until the replica is promoted', () => {
    const { e, rec } = engine();
    // segment 1: owner 1, replica 2. Fail node 1 over and back while the client is idle:
    // the client's map still names node 2 (the promoted owner) when node 1 takes the segment back
    e.inject({ action: 'failover', node: 1 });
    e.runTo(6_000);
    e.client.connect(); // the client now routes segment 1 to node 2
    e.runTo(6_100);
    e.inject({ action: 'failback', node: 1 });
    e.runTo(9_000); // caught up, handed back: owner 1, replica 2
    expect(e.state.segment(1)).toMatchObject({ owner: 1, replicas: [2], phase: 'stable' });
    expect(e.client.map.owners[1]).toBe(2);
    e.inject({ action: 'failover', node: 1 });
    let result: OpResult | undefined;
    const op = e.client.execute({ kind: 'put', key: keyIn(1), value: 'x' }, (r) => (result = r));
    e.runTo(20_000);
    const attempts = rec.events.filter((x) => x.type === 'attempt.end' && x.op === op);
    expect(attempts[0]).toMatchObject({ node: 2, status: KvStatus.Unavailable });
    const unavailable = attempts.filter((a) => a.type === 'attempt.end' && a.status === KvStatus.Unavailable);
    expect(unavailable.length).toBeGreaterThan(1);
    // no refresh for Unavailable (SPEC §5): every retry goes to node 2 again, after a backoff
    expect(rec.events.filter((x) => x.type === 'refresh.request' && x.op === op)).toEqual([]);
    expect(rec.events.filter((x) => x.type === 'backoff' && x.op === op && x.status === KvStatus.Unavailable).length).toBe(unavailable.length);
    // node 1 is declared dead and node 2 promoted: the same route now succeeds
    expect(result).toMatchObject({ status: KvStatus.Ok, reason: 'success' });
    expect(attempts.at(-1)).toMatchObject({ node: 2, status: KvStatus.Ok });
  });
});

describe('one-way partition and garbled replies', () => {
  const base: ScenarioInput = {
    name: 'link-faults',
    seed: 3,
    durationMs: 6_000,
    cluster: { nodes: 3, segments: 16, replicas: 1 },
    client: { maxAttempts: 3, attemptTimeoutMs: 200 },
    workload: { concurrency: 16, thinkMs: 5, keys: 200 },
  };

  it('partition out: node 0 serves (writes are applied) but its replies are lost; nothing fails over', () => {
    const { summary, engine: e } = runScenario(loadScenario({ ...base, faults: [{ atMs: 1_000, action: 'partition', node: 0, direction: 'out', durationMs: 2_000 }] }));
    expect(summary.statuses.Timeout).toBeGreaterThan(0);
    expect(summary.writes.duplicateApplies).toBeGreaterThan(0); // applied, reply lost, retried: at-least-once
    expect(e.state.node(0)).toMatchObject({ status: 'up', declaredDead: false });
    expect(e.state.epoch).toBe(1);
    expect(summary.invariants.ok).toBe(true);
  });

  it('partition in: requests to node 0 are lost (nothing applied there); timeouts, no failover', () => {
    const rec = new Recorder();
    const { summary, engine: e } = runScenario(loadScenario({ ...base, faults: [{ atMs: 1_000, action: 'partition', node: 0, direction: 'in', durationMs: 2_000 }] }), { sinks: [rec] });
    expect(summary.statuses.Timeout).toBeGreaterThan(0);
    expect(summary.writes.duplicateApplies).toBe(0);
    expect(e.state.epoch).toBe(1);
    const inWindow = rec.events.filter((x) => x.type === 'attempt.end' && x.node === 0 && x.t > 1_250 && x.t < 2_900);
    expect(inWindow.every((x) => x.type === 'attempt.end' && x.error === TransportErrorCode.Timeout)).toBe(true);
  });

  it('garble: replies of node 0 become Transport errors (refresh-first), then it heals', () => {
    const rec = new Recorder();
    const { summary } = runScenario(loadScenario({ ...base, faults: [{ atMs: 1_000, action: 'garble', node: 0, probability: 1, durationMs: 1_000 }] }), { sinks: [rec] });
    expect(summary.statuses.Transport).toBeGreaterThan(0);
    const transport = rec.events.filter((x) => x.type === 'attempt.end' && x.error === TransportErrorCode.Transport);
    expect(transport.every((x) => x.type === 'attempt.end' && x.node === 0 && x.t >= 1_000 && x.t < 2_100)).toBe(true);
    expect(rec.events.some((x) => x.type === 'refresh.request' && x.cause === TransportErrorCode.Transport)).toBe(true);
    expect(summary.invariants.ok).toBe(true);
  });
});

/**
 * A put on segment 1 (owner 1, replica 2; replication takes 20 ms, so the owner holds the reply that
 * long), then `fault` on node 1 `afterMs` later: the first attempt's end, the op's result, the audit.
 */
function putThen(fault: 'failover' | 'hang', afterMs: number, client: ScenarioInput['client'] = quiet.client) {
  const { e, rec } = engine({ ...quiet, client, cluster: { ...quiet.cluster, replicationMs: 20 } });
  const key = keyIn(1);
  let result: OpResult | undefined;
  const op = e.client.execute({ kind: 'put', key, value: 'x' }, (r) => (result = r));
  e.runTo(e.now + afterMs);
  expect(e.cluster.store(2, 1).get(key)?.version).toBe(1); // committed and replicated
  e.inject({ action: fault, node: 1 });
  e.runTo(20_000);
  const attempts = rec.events.filter((x) => x.type === 'attempt.end' && x.op === op);
  return { e, op, result, first: attempts[0] };
}

describe('a crash between a write and its reply', () => {
  const putThenCrash = (afterMs: number) => putThen('failover', afterMs);

  it('the owner crashes before it sent the reply: the client sees the connection reset although the write was applied, and the audit lists it', () => {
    const { e, op, result, first } = putThenCrash(5);
    expect(first).toMatchObject({ node: 1, error: TransportErrorCode.Socket });
    // the retry lands on the promoted replica, which applies the plain put a second time
    expect(result).toMatchObject({ status: KvStatus.Ok });
    const audit = e.applies?.report().ambiguous;
    expect(audit?.list.map((w) => [w.op, w.case, w.applies])).toEqual([[op, 'appliedTwice', 2]]);
  });

  it('the owner crashes after it sent the reply: the reply on the wire still arrives', () => {
    const { e, result, first } = putThenCrash(21);
    expect(first).toMatchObject({ node: 1, status: KvStatus.Ok });
    expect(result).toMatchObject({ status: KvStatus.Ok, reason: 'success' });
    expect(e.applies?.report().ambiguous.total).toBe(0);
  });
});

describe('a hang between a write and its reply', () => {
  // one attempt: the timeout is the op's answer
  const putThenHang = (afterMs: number) => putThen('hang', afterMs, { ...quiet.client, maxAttempts: 1 });

  it('the owner hangs before it sent the reply: it never sends it, the client times out although the write was applied, and the audit lists it', () => {
    const { e, op, result, first } = putThenHang(5);
    expect(first).toMatchObject({ node: 1, error: TransportErrorCode.Timeout });
    expect(result).toMatchObject({ error: TransportErrorCode.Timeout });
    const audit = e.applies?.report().ambiguous;
    expect(audit?.list.map((w) => [w.op, w.case])).toEqual([[op, 'appliedReportedFailed']]);
  });

  it('the owner hangs before its reply was due and resumes while the reply would have been on the wire: the reply is still never sent', () => {
    // 5 ms links: the reply, due 20 ms after the commit, would reach the client 5 ms later; the resume comes in between
    const { e, rec } = engine({ ...quiet, client: { ...quiet.client, maxAttempts: 1 }, cluster: { ...quiet.cluster, replicationMs: 20, latencyMs: 5 } });
    const key = keyIn(1);
    let result: OpResult | undefined;
    const op = e.client.execute({ kind: 'put', key, value: 'x' }, (r) => (result = r));
    while (e.cluster.store(1, 1).get(key) === undefined) e.runTo(e.now + 1); // committed within the last ms
    e.runTo(e.now + 5);
    e.inject({ action: 'hang', node: 1 });
    e.runTo(e.now + 17); // past the moment the reply was due (commit + 20 ms), before it would arrive (+ 25 ms)
    e.inject({ action: 'resume', node: 1 });
    e.runTo(20_000);
    const first = rec.events.find((x) => x.type === 'attempt.end' && x.op === op);
    expect(first).toMatchObject({ node: 1, error: TransportErrorCode.Timeout });
    expect(result).toMatchObject({ error: TransportErrorCode.Timeout });
    expect(e.applies?.report().ambiguous.list.map((w) => [w.op, w.case])).toEqual([[op, 'appliedReportedFailed']]);
  });

  it('the owner hangs after it sent the reply: the reply on the wire still arrives', () => {
    const { e, result, first } = putThenHang(21);
    expect(first).toMatchObject({ node: 1, status: KvStatus.Ok });
    expect(result).toMatchObject({ status: KvStatus.Ok, reason: 'success' });
    expect(e.applies?.report().ambiguous.total).toBe(0);
  });
});
