import { describe, expect, it } from 'vitest';
import { SimEngine } from '../sim/engine';
import { findPreset } from '../sim/presets';
import { loadScenario } from '../sim/scenario';
import { shortenedPreset } from '../sim/testkit/presetInputs';
import { Recorder } from '../sim/testkit/recorder';
import { InputError } from '../validation';
import { EVENT_TYPES, type ZarisEvent } from './events';
import { assertNdjsonSize, parseNdjson, toNdjson, validateEvent, zarisEventSchema } from './eventSchema';

/** events of a real failback run (crash, promotion, return, handoff) */
function failbackEvents(): ZarisEvent[] {
  const rec = new Recorder();
  new SimEngine(loadScenario(shortenedPreset('failback', 3000, 0.2)), { sinks: [rec] }).run();
  return rec.events;
}

/** the message of the InputError `f` throws */
function errorOf(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as InputError).message;
  }
  throw new Error('expected an InputError');
}

const ok = (o: Record<string, unknown>) => JSON.stringify(o);
const start = { t: 1, type: 'op.start', op: 1, kind: 'get', key: 'k1', segment: 3 };
const aStart = { t: 2, type: 'attempt.start', op: 1, attempt: 1, node: 0, epoch: 1 };
const aEnd = { t: 3, type: 'attempt.end', op: 1, attempt: 1, node: 0, status: 'Ok', latencyMs: 1 };

describe('parseNdjson / toNdjson', () => {
  it('round-trips a real failback run: events → NDJSON → events deep-equal', () => {
    const events = failbackEvents();
    const types = new Set(events.map((e) => e.type));
    // the run exercises nearly every event type
    for (const t of ['op.start', 'attempt.end', 'backoff', 'refresh.start', 'refresh.end', 'refresh.coalesced', 'fault', 'topology', 'op.end'] as const) expect(types).toContain(t);
    const text = toNdjson(events);
    expect(text.endsWith('\n')).toBe(true);
    expect(parseNdjson(text)).toEqual(events);
    // and the union schema accepts every one of them
    for (const e of events.slice(0, 2000)) expect(zarisEventSchema.safeParse(e).success).toBe(true);
  }, 30_000);

  it('round-trips a few virtual seconds of the full failback preset', () => {
    const rec = new Recorder();
    const engine = new SimEngine(loadScenario(findPreset('failback')?.input), { sinks: [rec] });
    engine.runTo(3200);
    expect(rec.events.length).toBeGreaterThan(10_000);
    expect(parseNdjson(toNdjson(rec.events))).toEqual(rec.events);
  }, 30_000);

  it('accepts CRLF line ends, blank lines and a missing final newline', () => {
    const text = `\r\n${ok(start)}\r\n\r\n   \n${ok(aStart)}\r\n${ok(aEnd)}`;
    expect(parseNdjson(text).map((e) => e.type)).toEqual(['op.start', 'attempt.start', 'attempt.end']);
    expect(parseNdjson('')).toEqual([]);
    expect(toNdjson([])).toBe('');
  });

  it('an unknown event type names the line and lists every allowed type', () => {
    const lines = [ok(start), ok(aStart), ok({ t: 3, type: 'op.explode', op: 1 })];
    const m = errorOf(() => parseNdjson(lines.join('\n')));
    expect(m).toContain('line 3: type: must be one of op.start, attempt.start');
    for (const t of EVENT_TYPES) expect(m).toContain(t);
    expect(m).toContain('"op.explode"');
  });

  it('an event past one hour names its line and the limit (it was reported as "durationMs", a field the file does not have)', () => {
    expect(errorOf(() => parseNdjson(`${ok(start)}\n${ok({ ...aStart, t: 4_000_000 })}`))).toContain('line 2: t: must be at most 3600000 ms: no run lasts over one hour (got 4000000)');
    expect(parseNdjson(ok({ ...start, t: 3_600_000 }))).toHaveLength(1);
  });

  it('a missing type, a non-object and an array are refused with the line', () => {
    expect(errorOf(() => parseNdjson(ok({ t: 1 })))).toContain('line 1: type: required: must be one of op.start');
    expect(errorOf(() => parseNdjson('42'))).toContain('line 1: must be a JSON object');
    expect(errorOf(() => parseNdjson(`${ok(start)}\n[1,2]`))).toContain('line 2: must be a JSON object');
    expect(errorOf(() => parseNdjson('null'))).toContain('line 1: must be a JSON object');
  });

  it('a bad field names the line, the field path and the allowed values', () => {
    const bad = (o: Record<string, unknown>) => errorOf(() => parseNdjson(`${ok(start)}\n\n${ok(o)}`));
    expect(bad({ ...aEnd, status: 'Fine' })).toMatch(/line 3: status: must be one of Ok, NotFound, Conflict, Moved, OwnershipChanging, ReplicaWriteRejected, Migrating, Unavailable \(got "Fine"\)/);
    expect(bad({ ...aEnd, status: undefined, error: 'Boom' })).toContain('line 3: error: must be one of NodeUnavailable, PartitionUnavailable, Transport, Socket, Timeout, NonRetryable');
    expect(bad({ ...aStart, attempt: 0 })).toContain('line 3: attempt: must be a whole number ≥ 1 (got 0)');
    expect(bad({ ...aStart, epoch: 'one' })).toContain('line 3: epoch: must be a whole number ≥ 0 (got "one")');
    expect(bad({ ...aStart, node: undefined })).toContain('line 3: node: required');
    expect(bad({ ...start, t: 5, kind: 'scan' })).toContain('line 3: kind: must be one of get, put, delete');
    expect(bad({ ...start, t: 5, cond: { ifMatchVersion: -1 } })).toContain('line 3: cond.ifMatchVersion: must be a whole number ≥ 0');
    expect(bad({ t: 5, type: 'fault', action: 'meteor', node: 1, segments: [] })).toContain('line 3: action: must be one of failover, scaleOut, failback, hang, resume, slow, lostAck');
    expect(bad({ t: 5, type: 'topology', epoch: 2, change: 'promoted', node: 1, segments: [1, 'x'] })).toContain('line 3: segments[1]: must be a whole number ≥ 0');
    expect(bad({ t: 5, type: 'op.end', op: 1, attempts: 1, latencyMs: 1, reason: 'bored', status: 'Ok' })).toContain('line 3: reason: must be one of success, realAnswer, attemptsExhausted, deadline, nonRetryable, waitBudget');
  });

  it('status and error: exactly one of them', () => {
    expect(errorOf(() => parseNdjson(ok({ ...aEnd, status: undefined })))).toContain('line 1: status: exactly one of status or error is required');
    expect(errorOf(() => parseNdjson(ok({ ...aEnd, error: 'Timeout' })))).toContain('exactly one of status or error');
  });

  it('unknown fields are rejected (strict), including __proto__ and constructor', () => {
    expect(errorOf(() => parseNdjson(ok({ ...start, extra: 1 })))).toContain('line 1: unknown field(s) "extra"');
    const proto = `{"t":1,"type":"op.start","op":1,"kind":"get","key":"k","segment":0,"__proto__":{"polluted":true}}`;
    expect(errorOf(() => parseNdjson(proto))).toContain('"__proto__"');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(errorOf(() => parseNdjson(ok({ ...start, constructor: 'x' })))).toContain('"constructor"');
  });

  it('a truncated last line names the line and says the file ends inside it', () => {
    const text = toNdjson([start, aStart, aEnd] as ZarisEvent[]);
    const cut = text.slice(0, text.length - 15);
    const m = errorOf(() => parseNdjson(cut));
    expect(m).toContain('line 3: truncated or not valid JSON (the file ends inside this event?)');
  });

  it('broken JSON in the middle names its line', () => {
    expect(errorOf(() => parseNdjson(`${ok(start)}\n{"t":2,\n${ok(aEnd)}`))).toContain('line 2: not valid JSON');
  });

  it('events out of time order name the line and the previous line', () => {
    const m = errorOf(() => parseNdjson([ok(start), ok({ ...aStart, t: 5 }), ok({ ...aEnd, t: 4 })].join('\n')));
    expect(m).toContain('line 3: t: events out of time order: t = 4 is before t = 5 of line 2');
  });

  it('non-finite and negative times are refused', () => {
    expect(errorOf(() => parseNdjson(ok({ ...start, t: -1 })))).toContain('line 1: t: must be a number of ms ≥ 0');
    expect(errorOf(() => parseNdjson('{"t":1e999,"type":"op.start","op":1,"kind":"get","key":"k","segment":0}'))).toContain('line 1: t:');
  });

  it('a file over the size limit is refused before parsing', () => {
    const text = `${ok(start)}\nthis is not json at all\n`;
    const m = errorOf(() => parseNdjson(text, { maxBytes: 40 }));
    expect(m).toMatch(/too large .*nothing was read/);
    expect(m).not.toContain('line');
    // UTF-8 bytes count, not characters
    const wide = ok({ ...start, key: 'ü'.repeat(30) });
    expect(() => parseNdjson(wide, { maxBytes: wide.length + 5 })).toThrow(/too large/);
    expect(() => assertNdjsonSize(300 * 1024 * 1024)).toThrow(/300 MB; at most 200 MB/);
    expect(() => assertNdjsonSize(1024)).not.toThrow();
  });

  it('more events than allowed are refused with the line', () => {
    const text = toNdjson([start, aStart, aEnd] as ZarisEvent[]);
    expect(errorOf(() => parseNdjson(text, { maxEvents: 2 }))).toContain('line 3: more than 2 events');
  });

  it('a hostile very long line or deep nesting is refused without crashing', () => {
    expect(errorOf(() => parseNdjson(`{"t":1,"type":"fault","detail":"${'x'.repeat(1_100_000)}"}`))).toContain('line 1: line is');
    const deep = `{"t":1,"type":"fault","action":"failover","node":1,"segments":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(errorOf(() => parseNdjson(deep))).toContain('line 1: segments[0]');
  });

  it('reports several bad lines (at most 10) in one error', () => {
    const lines = Array.from({ length: 30 }, (_, i) => ok({ ...start, t: i, kind: 'nope' }));
    const e = (() => {
      try {
        parseNdjson(lines.join('\n'));
      } catch (x) {
        return x as InputError;
      }
      throw new Error('expected an error');
    })();
    expect(e.issues.filter((i) => i.path.startsWith('line '))).toHaveLength(10);
    expect(e.message).toContain('stopped after 10 problems');
  });

  it('validateEvent reports issues without throwing', () => {
    expect(validateEvent(start)).toMatchObject({ ok: true });
    expect(validateEvent({ ...start, op: 1.5 })).toMatchObject({ ok: false, issues: [{ path: 'op' }] });
  });
});
