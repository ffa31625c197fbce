import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import { toNdjson } from '../../core/telemetry/eventSchema';
import { kpisOf } from '../KpiStrip';
import { createDashboardStore } from '../store/dashboardStore';
import { retriedOp } from '../store/testEvents';
import { TelemetryAggregator } from '../store/telemetryAggregator';
import { looksLikeEvents, ReplayController, SETTLE_MS } from './replayController';
import { withInFlightOverBudget } from './seekIndex';
import { freshRunTo, inProcessSession, manualTime, overBudgetOf, withAvailability } from './testkit';

const storm = (): Scenario => loadScenario(shortenedPreset('refresh-storm', 4000, 0.2), 'storm');

function setup() {
  const store = createDashboardStore();
  const time = manualTime();
  let clock = 0;
  const ctl = new ReplayController(store, (l) => inProcessSession(l, time), () => clock);
  // frames further apart than SETTLE_MS reach the store at once
  const later = () => (clock += SETTLE_MS + 1);
  return { store, ctl, time, later };
}

/** a fresh run to t, folded like the live store (with the availability rule the recording watched) */
function freshAt(s: Scenario, t: number) {
  const { events, availability } = freshRunTo(s, t);
  const agg = new TelemetryAggregator(() => s.client);
  agg.ingestEvents(events);
  const snap = agg.snapshot();
  // the replay's verdict counts operations in flight beyond their budget (see seekIndex.withInFlightOverBudget)
  return { events, snapshot: snap.invariants === null ? snap : { ...snap, invariants: withInFlightOverBudget(withAvailability(snap.invariants, availability), overBudgetOf(events), s.client) } };
}

afterEach(() => vi.useRealTimers());

describe('replay controller', () => {
  it('records a scenario once, the timeline holds the whole run, the store and the timeline show the cursor', async () => {
    const { store, ctl, later } = setup();
    later();
    const s = storm();
    await ctl.loadScenario(s, 'preset storm', 'refresh-storm', 1500);
    ctl.flushFrame();
    const st = ctl.ui.getState();
    expect(st.run?.identity).toMatchObject({ scenario: 'refresh-storm', seed: 1, source: 'preset storm' });
    expect(st.status.cursorMs).toBe(1500);
    expect(st.loading).toBeNull();
    expect(st.info?.events).toBe(freshAt(s, s.durationMs).events.length);
    expect(store.getState().session.scenario).toBe('refresh-storm');
    const fresh = freshAt(s, 1500);
    expect({ ...store.getState().snapshot, version: 0 }).toEqual({ ...fresh.snapshot, version: 0 });
    // the timeline has every op of the run, but shows only those started by the cursor
    const opsAt = fresh.events.filter((e) => e.type === 'op.start').length;
    const all = ctl.feed.recorder.sampling.keptOps;
    expect(all).toBeGreaterThan(opsAt);
    const lanes = ctl.feed.query.lanes('op', 0, s.durationMs, 1e9);
    expect(lanes.totalLanes).toBe(opsAt);
    expect(Math.max(...lanes.lanes.flatMap((l) => l.bars.map((b) => b.t1)))).toBeLessThanOrEqual(1500);
  });

  it('a load ends ("loading" clears) only once its first frame is in the store, though frames arrive after the seek\'s answer', async () => {
    const store = createDashboardStore();
    const ctl = new ReplayController(store, (l) => inProcessSession(l, manualTime(), 30), () => 0);
    const s = storm();
    await ctl.loadScenario(s, 'preset storm', 'refresh-storm');
    expect(ctl.ui.getState().loading).toBeNull();
    // the header's figures and the panels read this store: the run's end, not the empty start
    expect({ ...store.getState().snapshot, version: 0 }).toEqual({ ...freshAt(s, s.durationMs).snapshot, version: 0 });
  });

  it('the tiles and settings follow the schedule as recorded at the cursor: not started, running, paused, maxAttempts 3 then 5', async () => {
    const { store, ctl, later } = setup();
    // a recorded session: it began paused, was started at 1 s and paused at 3 s
    const s = loadScenario({ ...shortenedPreset('failover', 4000, 0.2), changes: [{ atMs: 0, paused: true }, { atMs: 1000, paused: false }, { atMs: 2000, client: { maxAttempts: 5 } }, { atMs: 3000, paused: true }] }, 'recorded');
    await ctl.loadScenario(s, 'a recording', null);
    const at = async (t: number) => {
      later();
      await ctl.seek(t);
      ctl.flushFrame();
      const st = store.getState();
      const tiles = kpisOf(st);
      return { running: st.running, everStarted: st.everStarted, maxAttempts: st.clientConfig.maxAttempts, served: tiles.find((k) => k.label === 'ops / s served') };
    };
    expect(await at(500)).toMatchObject({ running: false, everStarted: false, maxAttempts: 3, served: { value: '0', caption: 'real answers · not started' } });
    expect(await at(1500)).toMatchObject({ running: true, maxAttempts: 3 });
    // the scheduled change at 2 s: the budget the panels draw follows the cursor
    const running = await at(2500);
    expect(running).toMatchObject({ running: true, everStarted: true, maxAttempts: 5 });
    expect(Number(running.served?.value.replace(/k$/, '')), 'operations served in the second before 2.5 s').toBeGreaterThan(0);
    // after the pause: 0, "paused" — not the last second before it, labelled "last 1 s"
    expect(await at(3900)).toMatchObject({ running: false, everStarted: true, served: { value: '0', caption: 'real answers · paused' } });
  });

  it('seeks backwards without re-running: every figure is the fresh run to the new time', async () => {
    const { store, ctl, later } = setup();
    const s = storm();
    await ctl.loadScenario(s, 'preset storm', 'refresh-storm');
    expect(ctl.ui.getState().status.cursorMs).toBe(s.durationMs);
    for (const t of [3200, 900, 2500.5, 0]) {
      later();
      await ctl.seek(t);
      expect(ctl.ui.getState().status.cursorMs).toBe(t);
      expect({ ...store.getState().snapshot, version: 0 }).toEqual({ ...freshAt(s, t).snapshot, version: 0 });
      expect(ctl.feed.cursorMs).toBe(t);
      expect(ctl.ui.getState().lastSeekMs).not.toBeNull();
    }
  });

  it('a drag: frames in quick succession move the clock and the timeline at once, the panels once it rests', async () => {
    vi.useFakeTimers();
    const { store, ctl, later } = setup();
    const s = storm();
    later();
    await ctl.loadScenario(s, 'preset storm', 'refresh-storm', 0);
    const before = store.getState().snapshot;
    await ctl.seek(1000);
    await ctl.seek(2000);
    expect(ctl.ui.getState().status.cursorMs).toBe(2000);
    expect(ctl.feed.cursorMs).toBe(2000);
    expect(store.getState().snapshot).toBe(before);
    vi.advanceTimersByTime(SETTLE_MS);
    expect(store.getState().snapshot.totals.lastT).toBeLessThanOrEqual(2000);
    expect(store.getState().snapshot.totals.lastT).toBeGreaterThan(1900);
  });

  it('plays at 1×: the cursor moves with the clock, the panels get a frame every half second', async () => {
    const { store, ctl, time, later } = setup();
    const s = storm();
    later();
    await ctl.loadScenario(s, 'preset storm', 'refresh-storm', 0);
    await ctl.play();
    time.advance(1000);
    expect(ctl.ui.getState().status.playing).toBe(true);
    expect(ctl.ui.getState().status.cursorMs).toBeCloseTo(1000, -2);
    expect(store.getState().snapshot.totals.lastT).toBeGreaterThan(400);
    later();
    await ctl.pause();
    expect(ctl.ui.getState().status.playing).toBe(false);
    expect(store.getState().snapshot.totals.lastT).toBeLessThanOrEqual(ctl.ui.getState().status.cursorMs);
  });

  it('imports an events file through the same index; a bad one names the line and keeps the current run', async () => {
    const { ctl, store, later } = setup();
    later();
    await ctl.loadScenario(storm(), 'preset storm', 'refresh-storm');
    const bad = new File(['{"t":0,"type":"op.start","op":1,"kind":"get","key":"k","segment":0}\n{"t":1,"type":"attempt.start","op":1}\n'], 'bad.ndjson');
    expect(await ctl.readFile(bad)).toBeNull();
    expect(ctl.ui.getState().error).toMatch(/bad\.ndjson: line 2: attempt(: required)?|line 2/);
    expect(ctl.ui.getState().run?.identity.scenario).toBe('refresh-storm');

    const good = new File([toNdjson(retriedOp())], 'run.ndjson');
    expect(await ctl.readFile(good)).toEqual({ kind: 'events', name: 'run.ndjson' });
    const st = ctl.ui.getState();
    expect(st.error).toBeNull();
    expect(st.run).toMatchObject({ kind: 'events', identity: { scenario: 'run.ndjson', seed: null, client: null } });
    expect(st.info?.source).toBe('events');
    expect(ctl.feed.recorder.sampling.keptOps).toBe(2);
    expect(ctl.feed.query.story(1)?.attempts).toHaveLength(2);
    ctl.flushFrame();
    expect(store.getState().snapshot.totals.opsEnded).toBe(retriedOp().filter((e) => e.type === 'op.end').length);
    later();
    await ctl.seek(0);
    expect(store.getState().snapshot.totals.opsEnded).toBe(0);
  });

  it('reads a scenario file back to the caller, and refuses an oversized file before reading it', async () => {
    const { ctl } = setup();
    const sc = new File([JSON.stringify({ name: 'mine', seed: 4, durationMs: 2000 })], 'mine.json');
    const got = await ctl.readFile(sc);
    expect(got?.kind === 'scenario' && got.scenario.seed).toBe(4);
    const huge = { name: 'huge.ndjson', size: 10 ** 10, text: async () => '' } as unknown as File;
    expect(await ctl.readFile(huge)).toBeNull();
    expect(ctl.ui.getState().error).toMatch(/too large/);
  });

  it('tells events from scenarios by name, then by content', () => {
    expect(looksLikeEvents('a.ndjson', '')).toBe(true);
    expect(looksLikeEvents('a.json', '{"t":0,"type":"op.start"}')).toBe(false);
    expect(looksLikeEvents('run.log', '\n{"t":0,"type":"op.start","op":1}')).toBe(true);
    expect(looksLikeEvents('x', '{"name":"s","seed":1}')).toBe(false);
  });
});
