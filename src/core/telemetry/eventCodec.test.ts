import { describe, expect, it } from 'vitest';
import { SimEngine } from '../sim/engine';
import { loadScenario } from '../sim/scenario';
import { decodeEvent, EventBatchBuilder, transferables, type EventBatch } from './eventCodec';
import { EVENT_TYPES, type ZarisEvent } from './events';

/** a short run that exercises every event type: churn, a conditional-write mix, a lost ack, rejected arrivals */
function churnEvents(): ZarisEvent[] {
  const events: ZarisEvent[] = [];
  const scenario = loadScenario({
    name: 'codec',
    seed: 11,
    durationMs: 6000,
    cluster: { nodes: 3, segments: 16, replicas: 1, failureTimeoutMs: 800, heartbeatMs: 200, handoffMs: 100 },
    client: { refreshWaitBudgetMs: 1, operationTimeoutMs: 'infinite' },
    // the open loop's tiny pool turns arrivals away (arrival.rejected)
    workload: { concurrency: 8, ratePerSec: 20, maxInFlight: 1, keys: 50, mix: { get: 0.3, put: 0.3, delete: 0.1, cas: 0.2, createOnce: 0.1 } },
    faults: [
      { atMs: 500, action: 'failover', node: 1 },
      { atMs: 1500, action: 'scaleOut' },
      { atMs: 3000, action: 'failback', node: 1 },
      { atMs: 4500, action: 'lostAck', node: 0, durationMs: 500 },
    ],
  });
  new SimEngine(scenario, { sinks: [{ emit: (e) => events.push(e) }] }).run();
  // only the real engine emits these (a Redis ASK followed inside an attempt)
  events.push({ t: 6000.5, type: 'attempt.ask', op: 7, node: 0, to: 3, segment: 12182 });
  return events;
}

describe('event codec', () => {
  const events = churnEvents();

  it('covers every event type in the fixture', () => {
    const seen = new Set(events.map((e) => e.type));
    expect([...EVENT_TYPES].filter((t) => !seen.has(t))).toEqual([]);
  });

  it('decodes every row back to the event it encoded (lossless)', () => {
    const builder = new EventBatchBuilder(16); // tiny capacity: growth is exercised too
    for (const e of events) builder.push(e);
    const batch = builder.take();
    expect(batch.n).toBe(events.length);
    // one deep comparison of the whole stream (one expect per row took > 5 s on a busy machine)
    expect(events.map((_, i) => decodeEvent(batch, i))).toEqual(events);
  });

  it('starts a fresh batch after take() and hands out transferable buffers', () => {
    const builder = new EventBatchBuilder(4);
    builder.push(events[0] as ZarisEvent);
    const first = builder.take();
    expect(builder.length).toBe(0);
    builder.push(events[1] as ZarisEvent);
    const second = builder.take();
    expect(decodeEvent(first, 0)).toEqual(events[0]);
    expect(decodeEvent(second, 0)).toEqual(events[1]);
    expect(transferables(first)).toHaveLength(10);
  });

  it('a row reused after take() keeps nothing of the event it held before (same columns as a fresh builder)', () => {
    const reused = new EventBatchBuilder(8);
    const fresh = new EventBatchBuilder(events.length);
    const batches: EventBatch[] = [];
    for (let i = 0; i < events.length; i += 5) {
      // reversed: each row is reused by an event of another type than before
      for (const e of events.slice(i, i + 5).reverse()) {
        reused.push(e);
        fresh.push(e);
      }
      batches.push(reused.take());
    }
    const all = fresh.take();
    // the string column indexes each batch's own table: compared through the decoded events below
    const cols = ['t', 'type', 'op', 'a', 'b', 'c', 'd', 'e', 'f'] as const;
    const mismatch = (k: (typeof cols)[number]): number => {
      let row = 0;
      for (const b of batches)
        for (let i = 0; i < b.n; i++, row++) if (!Object.is(b[k][i], all[k][row])) return row;
      return -1;
    };
    expect(cols.map((k) => [k, mismatch(k)])).toEqual(cols.map((k) => [k, -1]));
    expect(batches.flatMap((b) => Array.from({ length: b.n }, (_, i) => decodeEvent(b, i)))).toEqual(Array.from({ length: all.n }, (_, i) => decodeEvent(all, i)));
  });
});
