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
  it.each([2, 3, 4])('hands every event to each of %i sinks in order, per-operation events by method when all take them', (n) => {
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
    // the methods took the four per-operation types (up to three sinks), emit the rest
    if (n <= 3) expect(byMethod.filter((l) => l.includes(' emit '))).toEqual(EVENTS.slice(3, 5).concat(EVENTS.slice(6)).flatMap((e) => Array.from({ length: n }, (_, i) => `s${i} emit ${e.type}`)));
  });

  it('falls back to emit when one sink has no per-operation methods', () => {
    const log: string[] = [];
    const t = teeSink([recorder('a', log, true), recorder('b', log, false)]);
    t.emit(EVENTS[0] as ZarisEvent);
    expect(log).toEqual(['a emit op.start', 'b op.start']);
  });
});
