import { describe, expect, it } from 'vitest';
import type { OpEndEvent, OpStartEvent } from '../telemetry/events';
import { ApplyTracker, classifyWrite, guardOf, safeAnswerOf, MAX_LISTED } from './applyTracker';
import { runScenario } from './runScenario';
import { loadScenario } from './scenario';
import { Recorder } from './testkit/recorder';
import { REPLICATION_TIMEOUT_MS } from '../cluster/replicaSet';

const start = (op: number, cond?: OpStartEvent['cond'], kind: OpStartEvent['kind'] = 'put'): OpStartEvent => ({
  t: 0,
  type: 'op.start',
  op,
  kind,
  key: `k${op}`,
  segment: 0,
  ...(cond ? { cond } : {}),
});
const end = (op: number, outcome: Pick<OpEndEvent, 'status' | 'error'>, attempts = 2): OpEndEvent => ({
  t: 10,
  type: 'op.end',
  op,
  attempts,
  latencyMs: 10,
  reason: 'success',
  ...outcome,
});

describe('classifyWrite', () => {
  it.each([
    [0, 'Timeout', null],
    [0, 'Ok', null],
    [0, 'Conflict', null], // a real Conflict: someone else's write
    [1, 'Ok', null],
    [1, 'Timeout', 'appliedReportedFailed'],
    [1, 'NodeUnavailable', 'appliedReportedFailed'],
    [1, 'Moved', 'appliedReportedFailed'],
    [1, 'Conflict', 'ownConflict'],
    [2, 'Ok', 'appliedTwice'],
    [2, 'Timeout', 'appliedTwice'],
    [2, 'Conflict', 'ownConflict'],
  ] as const)('%i apply(ies), caller told %s → %s', (applies, outcome, expected) => {
    expect(classifyWrite(applies, outcome)).toBe(expected);
  });

  it('guards and safe answers', () => {
    expect(guardOf({ cond: { ifMatchVersion: 3 } })).toBe('ifMatchVersion');
    expect(guardOf({ cond: { ifAbsent: true } })).toBe('ifAbsent');
    expect(guardOf({})).toBe('none');
    expect(safeAnswerOf({ case: 'ownConflict', guard: 'ifAbsent' })).toMatch(/already done/);
    expect(safeAnswerOf({ case: 'ownConflict', guard: 'ifMatchVersion', cas: 'incrementedAgain' })).toMatch(/applied its increment again/);
    expect(safeAnswerOf({ case: 'appliedTwice', guard: 'none' })).toMatch(/ifMatchVersion/);
  });
});

describe('ApplyTracker', () => {
  it('lists each case with its op id; gets and truthful answers are not listed', () => {
    const t = new ApplyTracker();
    t.emit(start(1)); // applied, reported Timeout
    t.onApply(1);
    t.emit(end(1, { error: 'Timeout' }));
    t.emit(start(2)); // applied twice
    t.onApply(2);
    t.onApply(2);
    t.emit(end(2, { status: 'Ok' }));
    t.emit(start(3, { ifMatchVersion: 4 })); // own Conflict
    t.onApply(3);
    t.emit(end(3, { status: 'Conflict' }));
    t.emit(start(4, { ifAbsent: true })); // a real Conflict
    t.emit(end(4, { status: 'Conflict' }));
    t.emit(start(5)); // truthful Ok
    t.onApply(5);
    t.emit(end(5, { status: 'Ok' }));
    t.emit(start(6, undefined, 'get'));
    t.emit(end(6, { error: 'Timeout' }));
    const r = t.report();
    expect(r.ambiguous.list.map((w) => [w.op, w.case, w.guard, w.applies, w.outcome])).toEqual([
      [1, 'appliedReportedFailed', 'none', 1, 'Timeout'],
      [2, 'appliedTwice', 'none', 2, 'Ok'],
      [3, 'ownConflict', 'ifMatchVersion', 1, 'Conflict'],
    ]);
    expect(r.ambiguous.byCase).toEqual({ appliedReportedFailed: 1, appliedTwice: 1, ownConflict: 1 });
    expect(r.ambiguous.byGuard).toEqual({ none: 2, ifMatchVersion: 1, ifAbsent: 0 });
    expect(r.ambiguous.total).toBe(3);
    expect([r.duplicateOps, r.duplicateApplies, r.examples]).toEqual([1, 1, [2]]);
  });

  it('an apply after the operation ended (a request the client gave up on, served late) makes it ambiguous then', () => {
    const t = new ApplyTracker();
    t.emit(start(7));
    t.emit(end(7, { error: 'Timeout' }));
    expect(t.report().ambiguous.total).toBe(0);
    t.onApply(7);
    expect(t.report().ambiguous.list).toMatchObject([{ op: 7, case: 'appliedReportedFailed', applies: 1 }]);
    t.onApply(7); // and once more: now a duplicate too (counted once as ambiguous)
    expect(t.report()).toMatchObject({ duplicateOps: 1, ambiguous: { total: 1, list: [{ op: 7, applies: 2 }] } });
    t.onApply(123_456); // never seen (or long out of the window)
    expect(t.report().ambiguous.lateAppliesUnmatched).toBe(1);
  });

  it('records what the CAS workload made of its own Conflict; a real Conflict is not counted', () => {
    const t = new ApplyTracker();
    t.emit(start(1, { ifMatchVersion: 1 }));
    t.onApply(1);
    t.emit(end(1, { status: 'Conflict' }));
    t.emit(start(2, { ifMatchVersion: 1 }));
    t.onApply(2);
    t.emit(end(2, { status: 'Conflict' }));
    t.emit(start(3, { ifMatchVersion: 1 }));
    t.emit(end(3, { status: 'Conflict' }));
    t.onCasConflict(1, true);
    t.onCasConflict(2, false);
    t.onCasConflict(3, false);
    const r = t.report().ambiguous;
    expect([r.casOwnWriteFound, r.casIncrementedAgain]).toEqual([1, 1]);
    expect(r.list.map((w) => w.cas)).toEqual(['ownWriteFound', 'incrementedAgain']);
  });

  it('counts every ambiguous write but lists at most MAX_LISTED', () => {
    const t = new ApplyTracker();
    for (let op = 1; op <= MAX_LISTED + 10; op++) {
      t.emit(start(op));
      t.onApply(op);
      t.emit(end(op, { error: 'Socket' }));
    }
    expect(t.report().ambiguous.total).toBe(MAX_LISTED + 10);
    expect(t.report().ambiguous.list).toHaveLength(MAX_LISTED);
  });
});

/** a 4 s run on 3 nodes × 16 segments (replicas 1) with one fault at 1 s, recorded */
function auditRun(name: string, seed: number, client: Record<string, unknown>, workload: Record<string, unknown>, fault: Record<string, unknown>) {
  const scenario = loadScenario(
    { name, seed, durationMs: 4000, cluster: { nodes: 3, segments: 16, replicas: 1 }, client, workload, faults: [{ atMs: 1000, ...fault }] },
    'test',
    {},
  );
  const rec = new Recorder();
  return { ...runScenario(scenario, { sinks: [rec] }), rec };
}

/** node 0 drops half of its acknowledgements for 2 s */
function lostAck(client: Record<string, unknown>, mix: Record<string, number>) {
  return auditRun('audit', 3, client, { concurrency: 16, keys: 200, mix }, { action: 'lostAck', node: 0, durationMs: 2000, probability: 0.5 });
}

describe('ambiguous writes known before each fault (the cards\' spans)', () => {
  const at = <E extends OpStartEvent | OpEndEvent>(t: number, e: E): E => ({ ...e, t });
  const timeout = { error: 'Timeout' as const };

  it('a fault event marks the writes known before it; a write that ended at the fault\'s time counts after it', () => {
    const a = new ApplyTracker();
    const ambiguousAt = (op: number, t: number) => {
      a.opStart(at(t - 5, start(op)));
      a.onApply(op);
      a.opEnd(at(t, end(op, timeout)));
    };
    ambiguousAt(1, 100);
    ambiguousAt(2, 200);
    a.emit({ t: 200, type: 'fault', action: 'failover', node: 1, segments: [] });
    ambiguousAt(3, 300);
    expect(a.view().knownBefore).toEqual([{ t: 200, count: 1, byCase: { appliedReportedFailed: 1, appliedTwice: 0, ownConflict: 0 }, exact: true }]);
    // not in the run summary
    expect(a.report().knownBefore).toBeUndefined();
  });

  it('a mark set late (the live client hears of the fault after it) leaves out the writes since that ended at or after its time; a late apply adds one that ended before', () => {
    const a = new ApplyTracker();
    a.opStart(at(40, start(1)));
    a.onApply(1);
    a.opEnd(at(90, end(1, timeout))); // ended before the fault, found now
    a.opStart(at(100, start(2)));
    a.opEnd(at(150, end(2, timeout))); // not applied yet: unambiguous so far
    a.opStart(at(160, start(3)));
    a.onApply(3);
    a.opEnd(at(210, end(3, timeout))); // ended after the fault's time, found before the mark arrived
    a.mark(200);
    expect(a.view().knownBefore).toEqual([{ t: 200, count: 1, byCase: { appliedReportedFailed: 1, appliedTwice: 0, ownConflict: 0 }, exact: true }]);
    a.onApply(2); // the write that ended at 150 landed late: known before the fault
    expect(a.view().knownBefore).toEqual([{ t: 200, count: 2, byCase: { appliedReportedFailed: 2, appliedTwice: 0, ownConflict: 0 }, exact: true }]);
  });

  it('is a lower bound, said so, when more writes were found since the time than the ring of the latest holds', () => {
    const a = new ApplyTracker();
    for (let op = 1; op <= 1_100; op++) {
      a.opStart(at(op, start(op)));
      a.onApply(op);
      a.opEnd(at(1_000 + op, end(op, timeout)));
    }
    a.mark(500); // every write ended after 500, but the oldest found fell out of the ring
    expect(a.view().knownBefore?.[0]?.exact).toBe(false);
    a.mark(2_050); // the writes that ended at or after 2,050 are all still in the ring
    expect(a.view().knownBefore?.[1]).toEqual({ t: 2_050, count: 1_049, byCase: { appliedReportedFailed: 1_049, appliedTwice: 0, ownConflict: 0 }, exact: true });
  });
});

describe('the audit on runs with lost acknowledgements', () => {
  it('one attempt per op: writes that landed although the caller got Timeout are listed, and the event log agrees', () => {
    const { summary, rec } = lostAck({ maxAttempts: 1 }, { get: 0.2, put: 0.8 });
    const a = summary.writes.ambiguous;
    expect(a.byCase.appliedReportedFailed).toBeGreaterThan(0);
    expect(a.byCase.appliedTwice).toBe(0); // one attempt cannot apply twice
    const ends = new Map(rec.of('op.end').map((e) => [e.op, e]));
    for (const w of a.list) {
      expect(ends.get(w.op)).toMatchObject({ error: 'Timeout', attempts: 1 });
      expect(rec.of('op.start').find((e) => e.op === w.op)).toMatchObject({ kind: 'put', key: w.key });
    }
  });

  it('retries: plain puts apply twice; CAS retries answer Conflict and the CAS loop finds its own write or is reported', () => {
    const { summary } = lostAck({}, { get: 0.2, put: 0.3, cas: 0.5 });
    const a = summary.writes.ambiguous;
    expect(a.byCase.appliedTwice).toBeGreaterThan(0);
    expect(a.byCase.ownConflict).toBeGreaterThan(0);
    expect(a.byGuard.ifMatchVersion).toBeGreaterThan(0);
    // every self-inflicted CAS Conflict that was re-read is accounted for: found (safe) or reported as incremented again
    expect(a.casOwnWriteFound).toBeGreaterThan(0);
    expect(a.casOwnWriteFound + a.casIncrementedAgain).toBeLessThanOrEqual(a.byCase.ownConflict);
    expect(summary.workload.casOwnWriteFound).toBe(a.casOwnWriteFound);
    expect(summary.writes.duplicateOps).toBe(a.byCase.appliedTwice);
  });
});

/** node 1 — the replica of node 0's segments — hangs at 1 s for 2 s; plain puts only */
function replicaHang(client: Record<string, unknown>) {
  return auditRun('replica-hang', 5, client, { concurrency: 32, keys: 200, mix: { get: 0.2, put: 0.8 } }, { action: 'hang', node: 1, durationMs: 2000 });
}

describe('a hung replica: the owner waits REPLICATION_TIMEOUT_MS for its ack, as a live owner does', () => {
  it("holds the writes it catches that long, then acknowledges them without it — inside the client's 1 s attempt timeout, so none of them is ambiguous", () => {
    const { summary, rec } = replicaHang({});
    // writes on node 0's segments that committed just after the hang waited out the ack timeout …
    const slow = rec.events.filter((e) => e.type === 'op.end' && e.status === 'Ok' && e.attempts === 1 && e.latencyMs >= REPLICATION_TIMEOUT_MS && e.t < 1000 + 2 * REPLICATION_TIMEOUT_MS);
    expect(slow.length).toBeGreaterThan(5);
    // … and were acknowledged, not retried: the owner gave up on the replica before the client gave up on the owner.
    // The only ambiguous writes are node 1's own: committed as owner in the last replication delay before it hung,
    // their replies were never sent (a hung node answers nothing), so the client timed out and retried the plain put
    const firstNode = new Map<number, number | null>();
    for (const e of rec.events) if (e.type === 'attempt.start' && e.attempt === 1) firstNode.set(e.op, e.node);
    const ambiguous = summary.writes.ambiguous.list;
    expect(ambiguous.length).toBeGreaterThan(0);
    expect(ambiguous.length).toBeLessThan(20);
    for (const w of ambiguous) expect([w.case, w.guard, firstNode.get(w.op)]).toEqual(['appliedTwice', 'none', 1]);
    expect(summary.invariants.ok).toBe(true);
  });

  it('with an attempt timeout below it, the client gives up first and retries: those writes apply twice (before, a hung replica was skipped at once and none was)', () => {
    const { summary } = replicaHang({ attemptTimeoutMs: REPLICATION_TIMEOUT_MS / 2 });
    expect(summary.writes.ambiguous.byCase.appliedTwice).toBeGreaterThan(5);
    expect(summary.invariants.ok).toBe(true);
  });
});

describe('CAS values', () => {
  it('carry the count and the last CAS_TAGS writer tags, newest first', async () => {
    const { nextCasValue, hasCasTag, casTags, casCount, CAS_TAGS } = await import('./workload');
    let v: string | undefined;
    for (let i = 1; i <= 12; i++) v = nextCasValue(v, `t${i}`);
    expect(casCount(v)).toBe(12);
    expect(casTags(v)).toEqual(['t12', 't11', 't10', 't9', 't8', 't7', 't6', 't5'].slice(0, CAS_TAGS));
    expect(hasCasTag(v, 't5')).toBe(true);
    expect(hasCasTag(v, 't4')).toBe(false);
    expect(nextCasValue('v3.17', 'a')).toBe('1:a'); // a plain put's value resets the count and the tags
    expect(nextCasValue(undefined, 'a')).toBe('1:a');
  });
});
