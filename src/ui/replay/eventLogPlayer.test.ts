import { describe, expect, it } from 'vitest';
import { decodeEvent, type EventBatch } from '../../core/telemetry/eventCodec';
import { parseNdjson } from '../../core/telemetry/eventSchema';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { ReplayListener, ReplayStatus } from '../bridge/replaySession';
import { retriedOp, steadyOps } from '../store/testEvents';
import { EventLogPlayer, indexAfter } from './eventLogPlayer';
import { latestOnly } from './latest';
import { replayDomain } from './replayDomain';

function listener() {
  const log: { resets: number; events: ZarisEvent[]; status: ReplayStatus | null } = { resets: 0, events: [], status: null };
  const l: ReplayListener = {
    onReset: () => {
      log.resets++;
      log.events = [];
    },
    onBatch: (b: EventBatch) => {
      for (let i = 0; i < b.n; i++) log.events.push(decodeEvent(b, i));
    },
    onStatus: (s) => (log.status = s),
    onClusterView: () => {},
    onClientView: () => {},
    onError: () => {},
  };
  return { l, log };
}

describe('event log replay (imported NDJSON)', () => {
  const events = [...retriedOp(), ...steadyOps(5, 1000, 100, 10)];

  it('finds the first event after a time', () => {
    expect(indexAfter(events, -1)).toBe(0);
    expect(indexAfter(events, 60)).toBe(events.findIndex((e) => e.t > 60));
    expect(indexAfter(events, 99_999)).toBe(events.length);
  });

  it('moves one cursor forward by steps and seeks, and re-runs from the start when going back', async () => {
    const { l, log } = listener();
    const p = new EventLogPlayer(events, l, { scenario: 'x' });
    p.load();
    expect(log.resets).toBe(1);
    expect(log.status).toMatchObject({ cursorMs: 0, durationMs: 1401, playing: false });
    await p.step(100);
    expect(log.events).toEqual(events.filter((e) => e.t <= 100));
    await p.seek(2000);
    expect(log.events).toEqual(events);
    expect(log.status?.cursorMs).toBe(1401);
    await p.seek(200);
    expect(log.resets).toBe(2);
    expect(log.events).toEqual(events.filter((e) => e.t <= 200));
    expect(log.status?.generation).toBe(1);
  });

  it('exports what it replays, losslessly', async () => {
    const p = new EventLogPlayer(events, listener().l, { scenario: 'x' });
    expect(parseNdjson(await p.exportNdjson())).toEqual(events);
    const trace = JSON.parse(await p.exportTrace()) as { traceEvents: unknown[] };
    expect(trace.traceEvents.length).toBeGreaterThan(0);
  });
});

describe('replay helpers', () => {
  it('runs only the latest of many queued seeks', async () => {
    const ran: number[] = [];
    let release: () => void = () => {};
    const seek = latestOnly(async (t: number) => {
      ran.push(t);
      if (t === 1) await new Promise<void>((r) => (release = r));
    });
    const all = [seek(1), seek(2), seek(3), seek(4)];
    release();
    await Promise.all(all);
    expect(ran).toEqual([1, 4]);
  });

  it('shows the whole run on the charts when it fits the 60 s window, else 60 s around the cursor', () => {
    expect(replayDomain(5000, 16_000)).toEqual([0, 16]);
    expect(replayDomain(10_000, 120_000)).toEqual([0, 60]);
    expect(replayDomain(90_000, 120_000)).toEqual([36, 96]);
    expect(replayDomain(119_000, 120_000)).toEqual([60, 120]);
  });
});
