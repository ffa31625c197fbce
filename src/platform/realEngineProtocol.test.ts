import { describe, expect, it } from 'vitest';
import { EventBatchBuilder, decodeEvent } from '../core/telemetry/eventCodec';
import type { ZarisEvent } from '../core/telemetry/events';
import { decodeBatch, encodeBatch, parsePageMessage } from './realEngineProtocol';

describe('the real-engine wire protocol', () => {
  it('accepts exactly the four commands, with registry names and node indexes', () => {
    expect(parsePageMessage('{"type":"start","id":1,"preset":"failover"}')).toEqual({ ok: true, message: { type: 'start', id: 1, preset: 'failover' } });
    expect(parsePageMessage('{"type":"fault","id":2,"action":"hang","node":3}')).toEqual({ ok: true, message: { type: 'fault', id: 2, action: 'hang', node: 3 } });
    expect(parsePageMessage('{"type":"fault","id":2,"action":"scaleOut"}').ok).toBe(true);
    expect(parsePageMessage('{"type":"pause","id":0}').ok).toBe(true);
    expect(parsePageMessage('{"type":"resume","id":0}').ok).toBe(true);
  });

  it.each([
    ['{', 'message: not JSON'],
    ['{"type":"start","id":1,"preset":"mine"}', /^preset: /],
    ['{"type":"fault","id":1,"action":"failover","node":-1}', /^node: /],
    ['{"type":"fault","id":1,"action":"failover","node":1.5}', /^node: /],
    ['{"type":"fault","id":1,"action":"rm"}', /^action: /],
    ['{"type":"pause","id":1,"path":"/tmp"}', /^message: /],
    ['{"type":"run","id":1}', /^type: /],
    ['[]', /^message: /],
    [`{"type":"pause","id":1,"x":"${'y'.repeat(2000)}"}`, 'message: at most 1024 bytes'],
  ])('refuses %s with one line naming the field', (text, error) => {
    const r = parsePageMessage(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(error);
  });

  it('a batch survives the binary frame unchanged (every column, strings, NaN and -1)', () => {
    const events: ZarisEvent[] = [
      { t: 1.25, type: 'op.start', op: 1, segment: 12182, key: 'k1', kind: 'get', deadline: 60_000, budget: 3 },
      { t: 2.5, type: 'attempt.end', op: 1, attempt: 1, node: 2, latencyMs: 0.4, status: 'Moved' },
      { t: 3, type: 'fault', action: 'failover', node: 0, segments: [0, 1, 2], detail: 'kill -9' },
    ];
    const b = new EventBatchBuilder(2);
    for (const e of events) b.push(e);
    const batch = b.take();
    const back = decodeBatch(encodeBatch(batch));
    expect(back.n).toBe(3);
    expect(events.map((_, i) => decodeEvent(back, i))).toEqual(events.map((_, i) => decodeEvent(batch, i)));
    expect(() => decodeBatch(encodeBatch(batch).subarray(0, 40))).toThrow();
  });
});
