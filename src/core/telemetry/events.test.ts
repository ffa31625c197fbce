import { describe, expect, it } from 'vitest';
import { teeSink, type OpEventSink, type TelemetrySink, type ZarisEvent } from './events';

const EVENTS: ZarisEvent[] = [
  { t: 0, type: 'op.start', op: 1, kind: 'put', key: 'k1', segment: 3 },
  { t: 0, type: 'attempt.start', op: 1, attempt: 1, node: 0, epoch: 1 },
  { t: 1, type: 'attempt.end', op: 1, attempt: 1, node: 0, status: 'Moved', latencyMs: 1 },
  { t: 1, type: 'refresh.request', op: 1, cause: 'Moved' },
  { t: 2, type: 'backoff', op: 1, attempt: 1, delayMs: 100, status: 'Moved' },
  { t: 3, type: 'op.end', op: 1, status: 'Ok', attempts: 2, latencyMs: 3, reason: 'success' },
  { t: 4, type: 'topology', epoch: 2, change: 'promoted', node: 1, segments: [3] },
];

/** records what it was called with, by method */
function recorder(name: string, log: string[], byMethod: boolean): TelemetrySink | OpEventSink {
  const emit = (e: ZarisEvent): void => void log.push(`${name} ${e.type}`);
  if (!byMethod) return { emit };
  return {
    emit: (e) => log.push(`${name} emit ${e.type}`),
    opStart: emit,
    attemptStart: emit,
    attemptEnd: emit,
    opEnd: emit,
  };
}

describe('teeSink', () => {
  it.each([2, 3, 4, 5])('hands every event to each of %i sinks in order, the per-operation events by method', (n) => {
    const byMethod: string[] = [];
    const plain: string[] = [];
    const tm = teeSink(Array.from({ length: n }, (_, i) => recorder(`s${i}`, byMethod, true)));
    const tp = teeSink(Array.from({ length: n }, (_, i) => recorder(`s${i}`, plain, false)));
    for (const e of EVENTS) {
      tm.emit(e);
      tp.emit(e);
    }
    expect(byMethod.map((l) => l.replace(' emit', ''))).toEqual(plain);
    expect(plain).toHaveLength(n * EVENTS.length);
    // the methods took the four per-operation types, emit the rest
    expect(byMethod.filter((l) => l.includes(' emit '))).toEqual(EVENTS.slice(3, 5).concat(EVENTS.slice(6)).flatMap((e) => Array.from({ length: n }, (_, i) => `s${i} emit ${e.type}`)));
  });

  it('gives a sink without the per-operation methods every event by emit, next to sinks with them', () => {
    const log: string[] = [];
    const t = teeSink([recorder('a', log, true), recorder('b', log, false), recorder('c', log, true)]);
    t.emit(EVENTS[0] as ZarisEvent);
    t.emit(EVENTS[3] as ZarisEvent);
    expect(log).toEqual(['a op.start', 'b op.start', 'c op.start', 'a emit refresh.request', 'b refresh.request', 'c emit refresh.request']);
  });

  it('returns a single sink itself', () => {
    const s = recorder('a', [], true);
    expect(teeSink([s])).toBe(s);
  });
});
