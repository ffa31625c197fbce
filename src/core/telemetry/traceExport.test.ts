import { describe, expect, it } from 'vitest';
import { SimEngine } from '../sim/engine';
import { loadScenario } from '../sim/scenario';
import { shortenedPreset } from '../sim/testkit/presetInputs';
import { Recorder } from '../sim/testkit/recorder';
import type { ZarisEvent } from './events';
import { toChromeTrace, TRACE_PID, type ChromeTrace, type TraceEvent } from './traceExport';

function run(id: string): Recorder {
  const rec = new Recorder();
  new SimEngine(loadScenario(shortenedPreset(id, 3000, 0.2)), { sinks: [rec] }).run();
  return rec;
}

const xs = (tr: ChromeTrace, cat?: string): TraceEvent[] => tr.traceEvents.filter((e) => e.ph === 'X' && (cat === undefined || e.cat === cat));

/** slices on one track either nest or follow each other; never a partial overlap */
function partialOverlaps(tr: ChromeTrace): string[] {
  const byTrack = new Map<string, TraceEvent[]>();
  for (const e of xs(tr)) {
    const k = `${e.pid}:${e.tid}`;
    const list = byTrack.get(k) ?? [];
    list.push(e);
    byTrack.set(k, list);
  }
  const bad: string[] = [];
  for (const [k, list] of byTrack) {
    list.sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
    const stack: { e: TraceEvent; end: number }[] = [];
    for (const e of list) {
      const end = e.ts + (e.dur ?? 0);
      while (stack.length > 0 && e.ts >= (stack[stack.length - 1]?.end ?? 0)) stack.pop();
      const top = stack[stack.length - 1];
      if (top !== undefined && end > top.end) bad.push(`${k}: ${e.name}@${e.ts}+${e.dur} crosses ${top.e.name}@${top.e.ts}+${top.e.dur}`);
      stack.push({ e, end });
    }
  }
  return bad;
}

function checkWellFormed(tr: ChromeTrace, rec: Recorder): void {
  expect(tr.displayTimeUnit).toBe('ms');
  expect(JSON.parse(JSON.stringify(tr))).toEqual(tr);
  for (const e of xs(tr)) {
    expect(e.ts).toBeGreaterThanOrEqual(0);
    expect(e.dur).toBeGreaterThanOrEqual(0);
    expect(Number.isInteger(e.ts) && Number.isInteger(e.dur)).toBe(true);
  }
  expect(partialOverlaps(tr)).toEqual([]);
  // every process and every track that holds events is named
  const named = new Set(tr.traceEvents.filter((e) => e.ph === 'M' && e.name === 'thread_name').map((e) => `${e.pid}:${e.tid}`));
  for (const e of tr.traceEvents.filter((x) => x.ph !== 'M')) expect(named.has(`${e.pid}:${e.tid}`)).toBe(true);
  const processes = tr.traceEvents.filter((e) => e.ph === 'M' && e.name === 'process_name').map((e) => [e.pid, e.args?.name]);
  expect(processes).toEqual([[1, 'operations'], [2, 'refresh'], [3, 'cluster']]);
  // counts match the events
  expect(xs(tr, 'op')).toHaveLength(rec.of('op.start').length);
  expect(xs(tr, 'attempt')).toHaveLength(rec.of('attempt.start').length);
  expect(xs(tr, 'backoff')).toHaveLength(rec.of('backoff').length);
  expect(xs(tr, 'refresh')).toHaveLength(rec.of('refresh.start').length);
  expect(xs(tr, 'refreshWait')).toHaveLength(rec.of('refresh.request').filter((e) => e.op !== null).length);
  expect(tr.traceEvents.filter((e) => e.ph === 'i' && e.pid === TRACE_PID.cluster)).toHaveLength(rec.of('fault').length + rec.of('topology').length);
  expect(tr.metadata.events).toBe(rec.events.length);
}

describe('toChromeTrace', () => {
  it('a refresh-storm run gives a well-formed trace whose slices match the events', () => {
    const rec = run('refresh-storm');
    expect(rec.of('backoff').length).toBeGreaterThan(50);
    const tr = toChromeTrace(rec.events, { scenario: 'refresh-storm', seed: 1 });
    checkWellFormed(tr, rec);
    expect(tr.metadata).toMatchObject({ scenario: 'refresh-storm', seed: 1, generator: 'Zaris Churn Lab' });
    // attempt slices are named by status or error and carry node/epoch/attempt/op
    const names = new Set(xs(tr, 'attempt').map((e) => e.name));
    expect(names).toContain('Ok');
    const failed = xs(tr, 'attempt').find((e) => e.name !== 'Ok' && e.name !== 'NotFound' && e.name !== 'Conflict');
    expect(failed?.args).toEqual(expect.objectContaining({ op: expect.any(Number), attempt: expect.any(Number), epoch: expect.any(Number) }));
    expect(failed?.args).toHaveProperty('node');
    const b = rec.of('backoff')[0] as Extract<ZarisEvent, { type: 'backoff' }>;
    expect(xs(tr, 'backoff').some((e) => e.name === `backoff ${b.delayMs} ms` && e.ts === Math.round(b.t * 1000))).toBe(true);
    // refresh slices carry their outcome and callers
    const r = xs(tr, 'refresh')[0];
    expect(r?.args).toEqual(expect.objectContaining({ ok: expect.any(Boolean), epochBefore: expect.any(Number), epochAfter: expect.any(Number), callers: expect.any(Number) }));
    const totalCallers = xs(tr, 'refresh').reduce((s, e) => s + Number(e.args?.callers ?? 0), 0);
    const startedByOps = rec.of('refresh.start').filter((e) => e.op !== null).length;
    expect(totalCallers).toBe(startedByOps + rec.of('refresh.coalesced').length);
  }, 30_000);

  it('one track per virtual user', () => {
    const rec = run('failover');
    const tr = toChromeTrace(rec.events);
    checkWellFormed(tr, rec);
    const vus = new Set(rec.of('op.start').map((e) => e.vu));
    const opTracks = new Set(xs(tr, 'op').map((e) => e.tid));
    expect(opTracks.size).toBe(vus.size);
  }, 30_000);

  it('with coalescing off, overlapping refreshes go on separate tracks (no partial overlap)', () => {
    const rec = run('herd');
    const tr = toChromeTrace(rec.events);
    checkWellFormed(tr, rec);
    expect(new Set(xs(tr, 'refresh').map((e) => e.tid)).size).toBeGreaterThan(1);
  }, 30_000);

  it('operations without a vu get one track each; unfinished work ends at the last event', () => {
    const events: ZarisEvent[] = [
      { t: 0, type: 'op.start', op: 7, kind: 'put', key: 'k', segment: 1 },
      { t: 0, type: 'attempt.start', op: 7, attempt: 1, node: 1, epoch: 1 },
      { t: 2, type: 'attempt.end', op: 7, attempt: 1, node: 1, status: 'Moved', latencyMs: 2 },
      { t: 2, type: 'refresh.request', op: 7, cause: 'Moved' },
      { t: 2, type: 'refresh.start', op: 7, refresh: 1 },
      { t: 3, type: 'op.start', op: 8, kind: 'get', key: 'j', segment: 2 },
      { t: 3, type: 'attempt.start', op: 8, attempt: 1, node: 0, epoch: 1 },
      { t: 5, type: 'refresh.end', refresh: 1, ok: true, epochBefore: 1, epochAfter: 2, node: 0, fetches: 1 },
      { t: 5, type: 'backoff', op: 7, attempt: 1, delayMs: 100, status: 'Moved' },
      { t: 6, type: 'fault', action: 'failover', node: 1, segments: [1, 2] },
    ];
    const tr = toChromeTrace(events);
    expect(partialOverlaps(tr)).toEqual([]);
    expect(new Set(xs(tr, 'op').map((e) => e.tid)).size).toBe(2);
    const open = xs(tr).filter((e) => e.ts + (e.dur ?? 0) === 6000);
    expect(open.map((e) => e.name).sort()).toEqual(['backoff 100 ms', 'get j', 'in flight', 'put k']);
    expect(xs(tr, 'refreshWait')[0]).toMatchObject({ ts: 2000, dur: 3000, args: { refresh: 1, how: 'started' } });
    expect(xs(tr, 'refresh')[0]).toMatchObject({ ts: 2000, dur: 3000, args: { callers: 1, startedBy: 7 } });
  });
});
