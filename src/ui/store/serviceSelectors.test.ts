import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { findPreset } from '../../core/sim/presets';
import { loadScenario } from '../../core/sim/scenario';
import { DEFAULT_WORKLOAD } from '../../core/sim/workloadConfig';
import type { ZarisEvent } from '../../core/telemetry/events';
import { describeScenarioChange, keepBugToggles } from '../controls/scenarioChange';
import { headlineKpis, tilePercent } from '../KpiStrip';
import { createDashboardStore } from './dashboardStore';
import { ambiguousDuring, selectEndReasons, selectEvidenceCards, selectRejectedArrivals, selectHeadline, selectNothingToDraw, selectSessionState, selectThroughputByOutcome, selectTimeDomain, selectWindowCaption, selectWindowView, type Headline } from './selectors';
import { formatShare } from './numberFormat';
import { steadyOps } from './testEvents';
import { selectEvidenceCard, sessionLineOf } from './serviceSelectors';
import { unfoldedIds } from '../story/EvidenceCards';
import { ApplyTracker, classifyWrite, MAX_LISTED, type AmbiguousCase } from '../../core/sim/applyTracker';
import { newOpEnd, newOpStart } from '../../core/telemetry/events';
import { FaultEvidenceTracker, type FaultEvidence } from '../../core/telemetry/faultEvidence';
import { KvStatus, TransportErrorCode } from '../../core/domain/status';
import { Rng } from '../../core/rng';

function storeWith(events: ZarisEvent[]) {
  const store = createDashboardStore();
  store.getState().ingestEvents(events);
  store.getState().publish();
  return store;
}

const evidence = (over: Partial<FaultEvidence> = {}): FaultEvidence => ({
  id: 1, action: 'failover', node: 1, t: 5_000, segments: 22, untilT: null, settledT: null, supersededT: null, lastT: 7_000, opsHit: 100, retries: 900, refreshRequests: 800, overBudget: 0,
  failed: 0, rejected: 0, stalledPeak: 0, inFlightPeak: 10, healthyBaselinePerSec: 4000, healthyLostMs: 0, servedBaselinePerSec: null, servedLowPerSec: null, slowBaselineMs: null, slowed: 0, slowestMs: 0, carried: [], ...over,
});
const headline = (over: Partial<Headline> = {}): Headline => ({
  running: true, opsPerSec: 5000, servedPerSec: 5000, failedPerSec: 0, rejectedPerSec: 0, retriesPerSec: 0, refreshRequestsPerSec: 0, refreshesPerSec: 0,
  overBudgetPerSec: 0, p99Ms: 2, inFlight: 10, parked: { attempt: 10, refreshWait: 0, backoff: 0 }, stalled: 0, service: { verdict: 'healthy', share: 1 }, ...over,
});

describe('headline', () => {
  it('counts attempts beyond the budget and rejected arrivals when they happen, and judges service over the last second', () => {
    const events: ZarisEvent[] = [
      ...steadyOps(100, 0, 10, 1),
      // op 500 is past its budget of 3 at its 4th attempt.start; it has not ended
      { t: 500, type: 'op.start', op: 500, kind: 'get', key: 'k', segment: 1, deadline: 60_500, budget: 3 },
      ...[1, 2, 3, 4].map((attempt): ZarisEvent => ({ t: 500 + attempt * 10, type: 'attempt.start', op: 500, attempt, node: 0, epoch: 1 })),
      ...Array.from({ length: 50 }, (_, i): ZarisEvent => ({ t: 600 + i, type: 'arrival.rejected', inFlight: 2048 })),
      ...steadyOps(1, 1_200, 1, 999),
    ];
    const s = storeWith(events).getState().snapshot;
    expect(s.totals.overBudgetOps).toBe(1);
    expect(s.totals.maxAttemptsPerOp).toBe(4); // in flight, yet counted
    expect(s.totals.rejected).toBe(50);
    const h = selectHeadline(s);
    expect(h.rejectedPerSec).toBeCloseTo(50, 5);
    expect(h.overBudgetPerSec).toBeCloseTo(1, 5);
    expect(h.service.share as number).toBeCloseTo(80 / 130, 5); // the last second (0.2–1.2 s): 80 served, 50 turned away
    expect(h.service.verdict).toBe('degraded');
  });

  it('after Pause the rates read 0 and the tiles say paused; the gauges stay true', () => {
    const s = storeWith(steadyOps(300, 0, 10, 1)).getState().snapshot;
    const running = selectHeadline(s, true);
    const paused = selectHeadline(s, false);
    expect(running.opsPerSec).toBe(100);
    expect(paused.opsPerSec).toBe(0);
    expect(paused.p99Ms).toBeNull();
    expect(paused.service.verdict).toBe('idle');
    expect(paused.inFlight).toBe(running.inFlight);
    const tiles = headlineKpis(paused, { ceiling: 2, stale: 0, poolSize: 2048 });
    expect(tiles.find((k) => k.label === 'ops / s served')).toMatchObject({ value: '0', caption: 'real answers · paused' });
    expect(headlineKpis(running, { ceiling: 2, stale: 0, poolSize: 2048 }).every((k) => /last 1 s|now/.test(k.caption))).toBe(true);
    // a full pool is red where an open loop turns arrivals away, not for closed-loop users who always hold their slots
    const full = { ...running, inFlight: 64 };
    expect(headlineKpis(full, { ceiling: 2, stale: 0, poolSize: 64 }).find((k) => k.label === 'in flight')).toMatchObject({ caption: 'now · pool 64', tone: 'bad' });
    const closed = headlineKpis(full, { ceiling: 2, stale: 0, poolSize: 64, closedLoopUsers: 64 }).find((k) => k.label === 'in flight');
    expect(closed).toEqual({ label: 'in flight', value: '64', caption: 'now · 64 closed-loop users' });
    expect(headlineKpis({ ...running, inFlight: 2112 }, { ceiling: 2, stale: 0, poolSize: 2112, closedLoopUsers: 64 }).find((k) => k.label === 'in flight')?.tone).toBe('bad');
    // the served tile: never 100 % for less than all, one decimal near it and under 10 %
    expect([1, 0.9999, 0.997, 0.994, 0.693, 0.07, 0, null].map(tilePercent)).toEqual(['100 %', '99.9 %', '99.7 %', '99 %', '69 %', '7 %', '0 %', '—']);
    // rounded to the nearest, as the status line rounds (it used to round down near 100: 99.6 % on the tile, 99.7 % beside it)
    expect([0.9966, 0.9949, 0.99949, 0.99951].map(tilePercent)).toEqual(['99.7 %', '99.5 %', '99.9 %', '99.9 %']);
    expect([0.9966, 0.9949, 0.99951, 1].map((share) => formatShare(share, 1))).toEqual(['99.7 %', '99.5 %', '99.9 %', '100 %']);
  });
});

describe('time window views', () => {
  it('a window the boot filled but no operation reached draws nothing (the panels say "press Start"), and one with operations draws', () => {
    const snap = storeWith(steadyOps(300, 0, 10, 1)).getState().snapshot;
    expect(selectNothingToDraw(snap)).toBe(false);
    expect(selectNothingToDraw({ ...snap, totals: { ...snap.totals, attempts: 0 } })).toBe(true);
    expect(selectNothingToDraw({ ...snap, window: { ...snap.window, length: 2 } })).toBe(true);
  });

  it('15 s keeps the last 15 s in 200 ms steps; 60 s is the ring; the whole session comes from the coarse ring', () => {
    const store = storeWith(steadyOps(3_000, 0, 10, 1)); // 30 s
    const snap = store.getState().snapshot;
    const short = selectWindowView(snap, '15s');
    const [a, b] = selectTimeDomain(short);
    expect(b - a).toBeCloseTo(15, 0);
    expect(selectWindowCaption(short, '15s')).toBe('last 15 s · 200 ms steps');
    expect(selectWindowView(snap, '60s')).toBe(snap);
    expect(selectWindowView(snap, 'session')).toBe(snap); // not published with the session ring
    store.getState().setTimeWindow('session');
    const whole = selectWindowView(store.getState().snapshot, 'session');
    expect(whole.bucketMs).toBe(1000);
    expect(selectWindowCaption(whole, 'session')).toBe('whole session · 1 s steps');
    const rows = selectThroughputByOutcome(whole).rows;
    expect(rows.length).toBe(30); // 29 complete 1 s steps (the one still filling is left out) and the closing row
    expect(rows[5]?.Ok).toBe(100);
  });
});

describe('what you are seeing', () => {
  const base = { started: true, evidence: [] as FaultEvidence[], poolSize: 2048, nowMs: 10_000 };
  it('a fault of a moment ago, or one that has hit nothing, is in progress, not "recovering … again" (review of 2026-12-02)', () => {
    const fresh = selectSessionState({ ...base, nowMs: 5_080, evidence: [evidence({ t: 5_000, action: 'lostAck', node: 0 })], headline: headline() });
    expect(fresh.state).toBe('fault');
    expect(fresh.text).toBe('Fault in progress — lost acknowledgements from node 0, 0.08 s ago: 100 % of demand served (last 1 s, mostly before the fault).');
    const harmless = selectSessionState({ ...base, evidence: [evidence({ action: 'scaleOut', node: 3, opsHit: 0 })], headline: headline() });
    expect(harmless.state).toBe('fault');
    expect(harmless.text).toMatch(/ ago: 100 % of demand served \(last 1 s\); no operation hit so far\.$/);
    // a slow link hits nothing, but its answers come slowly: the line says so, as the card does
    const slow = selectSessionState({ ...base, evidence: [evidence({ action: 'slow', node: 1, opsHit: 0, slowBaselineMs: 4.34, slowed: 7_358, slowestMs: 21.4 })], headline: headline() });
    expect(slow.state).toBe('fault');
    expect(slow.text).toMatch(/ ago: 100 % of demand served \(last 1 s\); no operation hit, but 7,358 answered over 2× slower than the p99 before it \(4\.34 ms\)\.$/);
    expect(selectSessionState({ ...base, evidence: [evidence()], headline: headline() }).state).toBe('recovering');
  });

  it('a fault that came while an earlier one still hurt says first that it took over (review of 2026-12-02)', () => {
    const partition = evidence({ id: 1, action: 'partition', node: 1, t: 19_200, supersededT: 20_400, stalledPeak: 323 });
    const slow = evidence({ id: 2, action: 'slow', node: 2, t: 20_400, stalledPeak: 2048 });
    const cards = selectEvidenceCards([partition, slow], [], { poolSize: 2048, nowMs: 22_000 });
    expect(cards[0]?.tookOver).toBe('the one-way partition of node 1 at 19.2 s');
    // beside the facts, not one of them: the worst fact stays first (and red on a bad card)
    expect(cards[0]?.facts.some((f) => f.includes('took over'))).toBe(false);
    expect(cards[1]?.tookOver).toBeUndefined();
    // one that had done nothing yet is not named
    const quiet = evidence({ ...partition, opsHit: 0, stalledPeak: 0 });
    expect(selectEvidenceCards([quiet, slow], [], { poolSize: 2048, nowMs: 22_000 })[0]?.tookOver).toBeUndefined();
  });

  it("a later fault's card counts none of an earlier storm's operations as its own, and says how many of them still stall", () => {
    // the storm's failover at 4 s; a scale-out at 6.5 s finds 2,048 of its operations in flight
    const failover = evidence({ id: 1, t: 4_000, supersededT: 6_500, opsHit: 2_048, overBudget: 2_048, stalledPeak: 2_048 });
    const scaleOut = evidence({ id: 2, action: 'scaleOut', node: 3, t: 6_500, opsHit: 40, retries: 40, refreshRequests: 40, stalledPeak: 3, carried: [{ from: 1, ops: 2_048, inFlight: 2_000, failed: 48 }] });
    const [card] = selectEvidenceCards([failover, scaleOut], [], { poolSize: 2048, nowMs: 8_000, stalledNow: 2_003 });
    expect(card?.tookOver).toBe('the failover (crash) of node 1 at 4 s');
    expect(card?.tookOverNote).toBe(
      'Took over from the failover (crash) of node 1 at 4 s, still ongoing when this fault came. 2,000 ops still stalled from the failover (crash) of node 1 at 4 s (2,048 in flight when this fault came, 48 failed since): they stay on the card of the fault that hit them, not counted here as hit, stalled or failed; arrivals turned away and throughput lost count here from then on, whatever holds the pool.',
    );
    // of the 2,003 stalled now, 3 are not the storm's
    expect(card?.facts).toEqual(['up to 3 ops stalled > 1 s (pool 2,048)', '2 attempts and 1 refresh request per op hit', '40 ops hit, 0 failed, 3 still stalled']);
    expect(card?.severity).toBe('warn');
    // in the first second after the scale-out, a carried operation may not have been in flight for 1 s yet
    expect(selectEvidenceCards([failover, { ...scaleOut, stalledPeak: 0 }], [], { poolSize: 2048, nowMs: 7_000, stalledNow: 1_500 })[0]?.tookOverNote).toContain('. 2,000 ops still in flight from the failover');
    // closed, all ended: what the card saw until then
    const ended = { ...scaleOut, supersededT: 9_000, carried: [{ from: 1, ops: 2_048, inFlight: 0, failed: 48 }] };
    expect(selectEvidenceCards([failover, ended], [], { poolSize: 2048, nowMs: 12_000 })[0]?.tookOverNote).toContain('. 2,048 ops from the failover (crash) of node 1 at 4 s were in flight when this fault came; all had ended when this card closed (48 failed): ');
  });

  it("the status line splits the stalled gauge as the cards do: an earlier fault's stalled operations are named as its own", () => {
    const failover = evidence({ id: 1, t: 4_000, supersededT: 6_500, opsHit: 2_048, stalledPeak: 2_048 });
    const scaleOut = evidence({ id: 2, action: 'scaleOut', node: 3, t: 6_500, opsHit: 40, retries: 40, refreshRequests: 40, carried: [{ from: 1, ops: 2_048, inFlight: 98, failed: 0 }] });
    const degraded = (stalled: number) => headline({ servedPerSec: 3000, stalled, inFlight: 300, service: { verdict: 'degraded', share: 0.7 } });
    const all = selectSessionState({ ...base, evidence: [failover, scaleOut], headline: degraded(98) });
    expect(all.state).toBe('fault');
    expect(all.text).toContain('; 98 ops stalled > 1 s (all from the failover (crash) of node 1 at 4 s).');
    const some = selectSessionState({ ...base, evidence: [failover, scaleOut], headline: degraded(120) });
    expect(some.text).toContain('; 120 ops stalled > 1 s (98 of them from the failover (crash) of node 1 at 4 s).');
    // none carried: the plain count, as before
    expect(selectSessionState({ ...base, evidence: [evidence()], headline: degraded(12) }).text).toContain('; 12 ops stalled > 1 s.');
    // not serving: the pool's share, split the same way
    const held = headline({ servedPerSec: 0, rejectedPerSec: 5000, stalled: 2_048, inFlight: 2_048, service: { verdict: 'notServing', share: 0 } });
    const storm = selectSessionState({ ...base, evidence: [failover, { ...scaleOut, carried: [{ from: 1, ops: 2_048, inFlight: 2_000, failed: 0 }] }], headline: held });
    expect(storm.text).toContain('2,048 operations stalled > 1 s (2,000 of them from the failover (crash) of node 1 at 4 s) hold 100 % of the request pool (2,048 slots)');
  });

  it('not all served with no fault open reads "degraded — no fault open", never "fault in progress — no fault injected"', () => {
    // the Live walk of 2026-12-06: before any fault, and after the storm's card settled, a second with arrivals
    // turned away (a busy page) read "FAULT IN PROGRESS  Fault in progress — no fault injected: 94.5 % …"
    const full = headline({ servedPerSec: 5000, rejectedPerSec: 293, inFlight: 4, service: { verdict: 'degraded', share: 0.945 } });
    const before = selectSessionState({ ...base, evidence: [], headline: full });
    expect(before).toMatchObject({ state: 'fault', label: 'degraded — no fault open' });
    expect(before.text).toBe('Degraded with no fault injected yet: 94.5 % of demand served (last 1 s); 293 arrivals/s turned away. The request pool was full: arrivals came faster than answers.');
    const after = selectSessionState({ ...base, evidence: [evidence({ id: 1, settledT: 9_000 }), evidence({ id: 2, t: 50_900, settledT: 60_900 })], headline: full });
    expect(after.label).toBe('degraded — no fault open');
    expect(after.text).toMatch(/^Degraded with no fault open \(the last, the failover \(crash\) of node 1 at 50\.9 s, has settled\): 94\.5 % of demand served/);
    expect(after.text).not.toContain('Fault in progress');
    // an open fault still reads as one
    expect(selectSessionState({ ...base, evidence: [evidence({ t: 3_000 })], headline: full }).label).toBe('fault in progress');
  });

  it('says "1 op", not "1 ops" (the scale-out card of 2026-12-03 read "attempt budget exceeded by 1 ops")', () => {
    const card = selectEvidenceCard(evidence({ overBudget: 1, opsHit: 1, stalledPeak: 1 }), { poolSize: 2048, nowMs: 10_000 });
    expect(card.facts).toContain('attempt budget exceeded by 1 op');
    expect(card.facts).toContain('up to 1 op stalled > 1 s (pool 2,048)');
    expect(card.facts.some((f) => f.startsWith('1 op hit, 0 failed'))).toBe(true);
    expect(card.facts.join(' ')).not.toMatch(/\b1 ops\b/);
  });

  it('turn-aways of the last second with room in the pool now: no "0 operations stalled hold 0 %" (review of 2026-12-02)', () => {
    const line = selectSessionState({ ...base, evidence: [evidence()], headline: headline({ servedPerSec: 300, rejectedPerSec: 1600, stalled: 0, inFlight: 203, service: { verdict: 'notServing', share: 0.16 } }) });
    expect(line.label).toBe('not serving — pool was full');
    expect(line.text).not.toContain('0 operations stalled');
    expect(line.text).toContain('1.6k arrivals/s turned away (request pool full); the pool has room again now (203 of 2,048 in flight)');
  });
  it('follows the session: idle, healthy, fault, recovering, storm, paused', () => {
    expect(selectSessionState({ ...base, started: false, headline: headline({ running: false }) }).state).toBe('idle');
    expect(selectSessionState({ ...base, headline: headline() }).text).toMatch(/^Running healthy: 100 % of demand served \(last 1 s\)/);
    // p99 as the tile writes it (formatLatency), not rounded to "20 ms" beside a tile reading 19.7 ms
    expect(selectSessionState({ ...base, headline: headline({ p99Ms: 19.74 }) }).text).toContain(', p99 19.7 ms.');
    // from a second on, seconds: "3.65 s", as Compare's table writes it, never "3.6k ms"
    expect(selectSessionState({ ...base, headline: headline({ p99Ms: 3_650 }) }).text).toContain(', p99 3.65 s.');
    expect(headlineKpis(headline({ p99Ms: 1_130 }), { ceiling: 2, stale: 0, poolSize: 2048 }).find((k) => k.label === 'p99 latency')?.value).toBe('1.13 s');
    // stalled operations have not ended: the p99 of the ended ones says it leaves them out
    expect(headlineKpis(headline({ p99Ms: 1_060, stalled: 1_552 }), { ceiling: 2, stale: 0, poolSize: 2048 }).find((k) => k.label === 'p99 latency')?.caption).toBe('ops ended, not the stalled · last 1 s');
    expect(headlineKpis(headline({ p99Ms: 2 }), { ceiling: 2, stale: 0, poolSize: 2048 }).find((k) => k.label === 'p99 latency')?.caption).toBe('ops ended · last 1 s');
    // the real engine counts staleness per drawn cell of hash slots, and says so (not "segments" beside "16,384 hash slots")
    expect(headlineKpis(headline(), { ceiling: 2, stale: 3, poolSize: 2048 }).at(-1)).toMatchObject({ label: 'stale segments', value: '3' });
    expect(headlineKpis(headline(), { ceiling: 2, stale: 3, poolSize: 2048, slotsPerCell: 256 }).at(-1)).toEqual({ label: 'stale cells', value: '3', caption: "now · client's map · 256 hash slots each" });
    const failing = headline({ servedPerSec: 3400, failedPerSec: 1700, service: { verdict: 'degraded', share: 0.66 } });
    expect(selectSessionState({ ...base, evidence: [evidence()], headline: failing }).state).toBe('fault');
    expect(selectSessionState({ ...base, evidence: [evidence()], headline: failing }).text).toMatch(/The client retries within its bounds and refreshes its map\.$/);
    // the storm's onset, before the pool is starved: the line must not say "within its bounds" beside a card of over-budget ops
    const onset = selectSessionState({ ...base, evidence: [evidence({ overBudget: 1_793 })], headline: failing });
    expect(onset.state).toBe('fault');
    expect(onset.text).toMatch(/1,793 ops went past their attempt budget: the client's bounds do not hold\.$/);
    expect(onset.text).not.toContain('within its bounds');
    expect(selectSessionState({ ...base, evidence: [evidence()], headline: headline() }).state).toBe('recovering');
    expect(selectSessionState({ ...base, evidence: [evidence({ settledT: 8_000 })], headline: headline() }).state).toBe('healthy');
    const storm = headline({ servedPerSec: 500, rejectedPerSec: 4500, stalled: 2048, inFlight: 2048, service: { verdict: 'notServing', share: 0.07 } });
    const line = selectSessionState({ ...base, evidence: [evidence({ overBudget: 2048, healthyLostMs: 1700 })], headline: storm });
    expect(line.state).toBe('storm');
    expect(line.text).toContain('2,048 operations stalled > 1 s hold 100 % of the request pool (2,048 slots); 4.5k arrivals/s turned away (request pool full); healthy segments starved for 1.7 s so far.');
    expect(line.text).toContain('Cause: 10 attempts and 8 refresh requests per op hit, 2,048 ops past their attempt budget.');
    expect(selectSessionState({ ...base, headline: headline({ running: false }) }).state).toBe('paused');
    // the tiles read 0 while paused: the line does not call them "frozen"
    expect(selectSessionState({ ...base, headline: headline({ running: false }) }).text).toContain('the rate tiles read 0 while the charts keep the session so far (the pause shaded)');
    // when the pause began, not the newest event (in-flight operations end after it)
    expect(selectSessionState({ ...base, headline: headline({ running: false }), pausedAtMs: 8_700 }).text).toMatch(/^Paused at t = 8\.7 s:/);
    // just started: nothing ended yet is not "a fault in progress"
    const nothingYet = headline({ servedPerSec: 0, service: { verdict: 'idle', share: null } });
    expect(selectSessionState({ ...base, headline: nothingYet })).toMatchObject({ state: 'starting', label: 'starting' });
    // the same window after a fault: a fault in progress, said without a "—" share
    const afterFault = selectSessionState({ ...base, evidence: [evidence()], headline: nothingYet });
    expect(afterFault.state).toBe('fault');
    expect(afterFault.text).toContain('no operation ended, stalled or was turned away (last 1 s)');
  });

  it('the served-rate tile says how far it fell below the open fault\'s rate before it', () => {
    const waiting = headline({ servedPerSec: 824, stalled: 64, service: { verdict: 'degraded', share: 0.928 } });
    const tile = (pre: number | null, h = waiting) => headlineKpis(h, { ceiling: 2, stale: 0, poolSize: 64, preFaultPerSec: pre }).find((k) => k.label === 'ops / s served');
    expect(tile(17_000)).toEqual({ label: 'ops / s served', value: '824', caption: 'real answers · last 1 s · 4.8 % of 17k before the fault', tone: 'bad' });
    expect(tile(null)).toEqual({ label: 'ops / s served', value: '824', caption: 'real answers · last 1 s' });
    expect(tile(1_200)?.caption).toBe('real answers · last 1 s');
    expect(tile(17_000, headline({ running: false, servedPerSec: 0 }))?.caption).toBe('real answers · paused');
  });

  it('names a collapse of throughput that the demand share hides (closed-loop users wait, so little demand is met in full)', () => {
    // lost acks: 64 users wait out 1 s attempt timeouts; what few ask is served
    const waiting = headline({ servedPerSec: 824, stalled: 64, service: { verdict: 'degraded', share: 0.928 } });
    const before = evidence({ action: 'lostAck', node: 0, servedBaselinePerSec: 17_000 });
    const line = selectSessionState({ ...base, poolSize: 64, evidence: [before], headline: waiting });
    expect(line.state).toBe('fault');
    expect(line.text).toContain('92.8 % of demand served (last 1 s); throughput 824 ops/s, 4.8 % of the 17k ops/s before the fault, 64 ops stalled > 1 s.');
    // at half of the baseline or above, or without a baseline, the line does not mention it
    expect(selectSessionState({ ...base, evidence: [before], headline: headline({ servedPerSec: 8_500, service: { verdict: 'degraded', share: 0.9 } }) }).text).not.toContain('throughput');
    expect(selectSessionState({ ...base, evidence: [evidence()], headline: waiting }).text).not.toContain('throughput');
    // served in full again, but not at the rate before: recovering says both
    expect(selectSessionState({ ...base, evidence: [before], headline: headline({ servedPerSec: 3_000 }) }).text).toContain('100 % of demand served (last 1 s) again, but throughput 3k ops/s, 17.6 % of the 17k ops/s before the fault;');
    // the card keeps the lowest second, open or settled
    const card = selectEvidenceCards([{ ...before, servedLowPerSec: 640, settledT: 9_000 }], [], { poolSize: 64, nowMs: 12_000 })[0];
    expect(card?.facts).toContain('throughput fell to 3.8 % of the 17k ops/s before the fault (lowest second: 640 ops/s)');
    expect(selectEvidenceCards([{ ...before, servedLowPerSec: 9_000 }], [], { poolSize: 64, nowMs: 8_000 })[0]?.facts.join(' ')).not.toContain('throughput fell');
  });

  it("a link fault's card names its side and strength (the fault event's detail): which way a partition loses messages", () => {
    const tracker = new FaultEvidenceTracker();
    tracker.fault(5_000, 'partition', 1, 21, 1, 'requests to the node lost for 5 s');
    const card = selectEvidenceCards([...tracker.list()], [], { poolSize: 2048, nowMs: 6_000 })[0];
    expect(card?.title).toBe('one-way partition of node 1 at 5 s — requests to the node lost for 5 s');
    expect(selectEvidenceCards([evidence()], [], { poolSize: 2048, nowMs: 6_000 })[0]?.title).toBe('failover (crash) of node 1 at 5 s');
  });

  it('a slow link that failed nothing says how many answers came slowly, instead of "no operation affected"', () => {
    const slow = evidence({ action: 'slow', opsHit: 0, retries: 0, refreshRequests: 0, slowBaselineMs: 1.54, slowed: 41_250, slowestMs: 23.4 });
    const card = selectEvidenceCards([slow], [], { poolSize: 2048, nowMs: 9_000 })[0];
    expect(card?.facts).toEqual(['41,250 ops answered over 2× slower than the p99 of the 5 s before (up to 23.4 ms; p99 before: 1.54 ms)']);
    expect(card?.severity).toBe('warn');
    expect(selectEvidenceCards([{ ...slow, slowed: 0 }], [], { poolSize: 2048, nowMs: 9_000 })[0]?.facts).toEqual(['no operation affected']);
  });

  it('a fault still in effect says until when, not "recovering" (a slow link that failed nothing), then how long it lasted', () => {
    const slow = evidence({ action: 'slow', opsHit: 0, retries: 0, refreshRequests: 0, untilT: 15_000 });
    expect(selectEvidenceCards([slow], [], { poolSize: 2048, nowMs: 9_000 })[0]?.status).toBe('in effect until 15 s · 4 s');
    expect(selectEvidenceCards([{ ...slow, settledT: 15_000 }], [], { poolSize: 2048, nowMs: 18_500 })[0]?.status).toBe('settled after 10 s');
  });

  it('Replay says since when the workload is paused at its cursor (the frame closes the pause there)', () => {
    const store = createDashboardStore();
    store.setState({ everStarted: true, running: false, pauseSpans: [{ from: 0, to: 1_800 }, { from: 7_200, to: 9_000 }] });
    expect(sessionLineOf(store.getState(), 9_000).text).toMatch(/^At 9 s the workload is paused \(since 7\.2 s\): nothing is sent/);
  });

  it('a storm is retrying past the budget: its first second is not "recovering", and a pool held within the budget is not called a storm', () => {
    // 0.84 s into the storm: the last second still reads ≈ 100 % served, but 377 ops retry past their budget
    const onset = selectSessionState({ ...base, evidence: [evidence({ overBudget: 377 })], headline: headline(), overBudgetInFlight: 377 });
    expect(onset.state).toBe('fault');
    expect(onset.text).toContain("377 ops went past their attempt budget (377 still retrying): the client's bounds do not hold.");
    expect(selectSessionState({ ...base, evidence: [evidence({ overBudget: 377 })], headline: headline(), overBudgetInFlight: 0 }).state).toBe('recovering');
    // lost acks hold a closed loop's slots within the budget: not serving, named, and not a storm
    const held = headline({ servedPerSec: 40, stalled: 64, inFlight: 64, service: { verdict: 'notServing', share: 0.3 } });
    const line = selectSessionState({ ...base, poolSize: 64, evidence: [evidence({ action: 'lostAck', node: 0, opsHit: 10, retries: 4, refreshRequests: 10 })], headline: held });
    expect(line.state).toBe('storm');
    expect(line.label).toBe('not serving — pool held');
    expect(line.text).toMatch(/^Not serving during the lost acknowledgements from node 0, 5 s ago: /);
    expect(line.text).toContain('The operations the fault hit made 1.4 attempts and 1 refresh request per op hit, within their budget.');
    expect(line.text).not.toContain('Cause:');
  });

  it("a later fault is not blamed for an earlier storm's operations: the line names the storm that still holds the pool", () => {
    // the storm's toggle was switched off; its 2,048 operations sleep in backoff until their deadline while a scale-out runs
    const held = headline({ servedPerSec: 0, rejectedPerSec: 5000, stalled: 2048, inFlight: 2048, service: { verdict: 'notServing', share: 0 } });
    const scaleOut = evidence({ action: 'scaleOut', node: 3, opsHit: 2048, retries: 8000, refreshRequests: 8000, overBudget: 0 });
    const line = selectSessionState({ ...base, evidence: [scaleOut], headline: held, overBudgetInFlight: 2048 });
    expect(line.label).toBe('storm — not serving');
    expect(line.text).toContain("Cause: 2,048 operations still retrying past their attempt budget from an earlier fault's storm, not the scale-out");
    expect(line.text).not.toContain('within their budget');
    // serving again, the same operations still retrying: the line says whose they are
    const serving = selectSessionState({ ...base, evidence: [scaleOut], headline: headline({ servedPerSec: 3000, service: { verdict: 'degraded', share: 0.6 } }), overBudgetInFlight: 2048 });
    expect(serving.text).toContain("The operations this fault hit keep within their bounds; 2,048 operations from an earlier fault's storm are still retrying past their budget");
  });

  it("gives the stalled ops' own share of the pool, not the in-flight share under their count", () => {
    const storm = headline({ servedPerSec: 500, rejectedPerSec: 4500, stalled: 1914, inFlight: 2048, service: { verdict: 'notServing', share: 0.08 } });
    const line = selectSessionState({ ...base, evidence: [evidence({ overBudget: 2040 })], headline: storm });
    expect(line.text).toContain('1,914 operations stalled > 1 s hold 93.5 % of the request pool (2,048 slots)');
  });

  it('evidence cards stay until dismissed, newest first, and name what the fault did', () => {
    const cards = selectEvidenceCards([evidence({ id: 1, settledT: 9_100, failed: 1700 }), evidence({ id: 2, t: 20_000, overBudget: 2048, rejected: 9000, stalledPeak: 2048, healthyLostMs: 2100 })], [], { poolSize: 2048, nowMs: 25_000 });
    expect(cards.map((c) => c.id)).toEqual([2, 1]);
    expect(cards[0]?.severity).toBe('bad');
    expect(cards[0]?.facts.slice(0, 4)).toEqual([
      'attempt budget exceeded by 2,048 ops',
      'healthy throughput lost for 2.1 s (the segments no fault named below half of their 4k ops/s before it)',
      'up to 2,048 ops stalled > 1 s (pool 2,048)',
      '9,000 arrivals turned away (pool full)',
    ]);
    expect(cards[0]?.status).toBe('ongoing · 5 s');
    expect(cards[1]).toMatchObject({ severity: 'warn', status: 'settled after 4.1 s' });
    // served again but not settled: the card says what the status line says
    const both = [evidence({ id: 1, settledT: 9_100 }), evidence({ id: 2, t: 20_000 })];
    expect(selectEvidenceCards(both, [], { poolSize: 2048, nowMs: 25_000, serviceHealthy: true }).map((c) => c.status)).toEqual(['recovering · 5 s', 'settled after 4.1 s']);
    expect(selectEvidenceCards(both, [], { poolSize: 2048, nowMs: 25_000, running: false, serviceHealthy: true })[0]?.status).toBe('open at pause · 5 s');
    expect(selectEvidenceCards([evidence({ id: 1 })], [1], { poolSize: 2048, nowMs: 25_000 })).toEqual([]);
  });

  it('the card shown whole beside the newest is the fault that left most demand unserved: the storm, not a failover that failed fast', () => {
    // the Live walk of 2026-12-06 (1280 x 800): Failover, Failback, the storm's Failover, Scale out — the
    // first failover (6,060 failed) stayed whole and the storm (0 failed, the pool held, 16,448 turned away) folded
    const failover = evidence({ id: 1, t: 17_000, settledT: 22_500, opsHit: 6_950, failed: 6_060, rejected: 1_731, stalledPeak: 79, healthyLostMs: 1_100 });
    const failback = evidence({ id: 2, action: 'failback', node: 0, t: 38_600, settledT: 39_900, opsHit: 840, failed: 216 });
    const storm = evidence({ id: 3, t: 50_900, settledT: 60_900, opsHit: 2_079, overBudget: 2_048, rejected: 16_448, stalledPeak: 2_048, healthyLostMs: 4_500 });
    const scaleOut = evidence({ id: 4, action: 'scaleOut', node: 3, t: 75_300, opsHit: 558, overBudget: 64 });
    const cards = selectEvidenceCards([failover, failback, storm, scaleOut], [], { poolSize: 2048, nowMs: 80_000 });
    expect(cards.map((c) => c.id)).toEqual([4, 3, 2, 1]);
    expect([...unfoldedIds(cards, [])].sort()).toEqual([3, 4]);
    // a failover that failed 7,000 still outranks a later failback that hit 9
    const fast = selectEvidenceCards([evidence({ id: 1, failed: 7_000, opsHit: 7_000 }), evidence({ id: 2, action: 'failback', t: 9_000, opsHit: 9 })], [], { poolSize: 2048, nowMs: 10_000 });
    expect([...unfoldedIds([...fast, ...selectEvidenceCards([evidence({ id: 3, action: 'scaleOut', t: 9_500, opsHit: 400 })], [], { poolSize: 2048, nowMs: 10_000 })].sort((a, b) => b.id - a.id), [])].sort()).toEqual([1, 3]);
  });

  it("a card's durations stand still while paused and say how much of them was paused", () => {
    const pauses = [{ from: 6_000, to: 10_000 }];
    // settled 6.1 s after the fault, 4 s of it paused
    expect(selectEvidenceCards([evidence({ t: 5_000, settledT: 11_100 })], [], { poolSize: 64, nowMs: 12_000, pauses })[0]?.status).toBe('settled after 6.1 s (4 s of it paused)');
    // paused now: the clock stands at the pause, whatever events arrive after it
    const paused = { poolSize: 64, nowMs: 8_400, running: false, pauses: [{ from: 6_000, to: null }] };
    expect(selectEvidenceCards([evidence({ t: 5_000 })], [], paused)[0]?.status).toBe('open at pause · 1 s');
    // running again: since the fault, with the pause named
    expect(selectEvidenceCards([evidence({ t: 5_000 })], [], { poolSize: 64, nowMs: 11_000, pauses })[0]?.status).toBe('ongoing · 6 s (4 s of it paused)');
    // no pause: as before
    expect(selectEvidenceCards([evidence({ t: 5_000, settledT: 9_100 })], [], { poolSize: 64, nowMs: 12_000 })[0]?.status).toBe('settled after 4.1 s');
  });

  it('an open card\'s "up to" stalled count is never below the stalled gauge now; a settled one keeps its record', () => {
    const open = evidence({ stalledPeak: 1867 });
    expect(selectEvidenceCards([open], [], { poolSize: 2048, nowMs: 8_000, stalledNow: 1914 })[0]?.facts).toContain('up to 1,914 ops stalled > 1 s (pool 2,048)');
    // a storm's open card: its hit ops have not failed, they are stuck
    expect(selectEvidenceCards([{ ...open, opsHit: 2213, failed: 0 }], [], { poolSize: 2048, nowMs: 8_000, stalledNow: 1549 })[0]?.facts).toContain('2,213 ops hit, 0 failed, 1,549 still stalled');
    expect(selectEvidenceCards([open], [], { poolSize: 2048, nowMs: 8_000, stalledNow: 100 })[0]?.facts).toContain('up to 1,867 ops stalled > 1 s (pool 2,048)');
    // "1 refresh request", not "1 refresh requests" (a lost ack: one retry, one refresh per op hit)
    expect(selectEvidenceCards([evidence({ opsHit: 52, retries: 10, refreshRequests: 52 })], [], { poolSize: 2048, nowMs: 8_000 })[0]?.facts).toContain('1.2 attempts and 1 refresh request per op hit');
    const settled = evidence({ stalledPeak: 40, settledT: 9_000 });
    expect(selectEvidenceCards([settled], [], { poolSize: 2048, nowMs: 12_000, stalledNow: 300 })[0]?.facts).toContain('up to 40 ops stalled > 1 s (pool 2,048)');
  });

  it('a card the next fault closed keeps what it saw until then: the live stalled gauge is the newer fault\'s', () => {
    // a lost ack at 5 s, a failover at 6.9 s that stalls 242 operations
    const lostAck = evidence({ id: 1, action: 'lostAck', node: 0, stalledPeak: 3, opsHit: 381, supersededT: 6_900 });
    const failover = evidence({ id: 2, t: 6_900, stalledPeak: 200, opsHit: 563, failed: 26 });
    const [newer, older] = selectEvidenceCards([lostAck, failover], [], { poolSize: 2048, nowMs: 7_300, stalledNow: 242 });
    expect(newer?.facts).toContain('up to 242 ops stalled > 1 s (pool 2,048)');
    expect(newer?.facts).toContain('563 ops hit, 26 failed, 242 still stalled');
    expect(newer?.status).toBe('ongoing · 0.4 s');
    expect(older?.facts).toContain('up to 3 ops stalled > 1 s (pool 2,048)');
    expect(older?.facts).toContain('381 ops hit, 0 failed');
    expect(older?.status).toBe('until the next fault · 1.9 s');
  });
});

describe('why operations ended', () => {
  it('counts the arrivals turned away beside the operations that ended (they never became operations)', () => {
    const events: ZarisEvent[] = [...steadyOps(20, 100, 10, 1), { t: 250, type: 'arrival.rejected', inFlight: 2048 }, { t: 260, type: 'arrival.rejected', inFlight: 2048 }];
    const snap = storeWith(events).getState().snapshot;
    expect(selectRejectedArrivals(snap)).toBe(2);
    expect(selectEndReasons(snap).find((r) => r.reason === 'success')?.ops).toBe(20);
  });
});

describe('scenario change', () => {
  it('keeps the bug toggles that are on and says what else changed', () => {
    const before = { client: { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } }, workload: DEFAULT_WORKLOAD };
    const picked = loadScenario(findPreset('scale-out')?.input);
    const kept = keepBugToggles(picked, before.client.bugs);
    expect(kept.client.bugs.deadlineReplacesAttempts).toBe(true);
    const note = describeScenarioChange(before, kept, 'Scale out');
    expect(note).toMatch(/^Loaded scenario "Scale out": kept bug toggle Deadline replaces attempts; /);
    expect(note).toContain('charts cleared.');
    // nothing on: nothing kept, nothing claimed
    expect(describeScenarioChange({ client: DEFAULT_CLIENT_CONFIG, workload: DEFAULT_WORKLOAD }, picked, 'Scale out')).not.toContain('kept');
  });
});

describe('ambiguous writes on the fault cards', () => {
  /** the session's audit after `n` writes, each applied once but answered Timeout, ending at the given times */
  const auditOf = (ends: readonly number[]) => {
    const a = new ApplyTracker();
    ends.forEach((t, i) => {
      const op = 100 + i;
      a.opStart({ ...newOpStart(), t: t - 50, op, kind: 'put', key: `k${i}` });
      a.onApply(op);
      a.opEnd({ ...newOpEnd(), t, op, status: undefined, error: TransportErrorCode.Timeout, attempts: 3, latencyMs: 50, reason: 'attemptsExhausted' });
    });
    return a.report();
  };

  it("counts on each card the writes known from its fault until the next one, and says so where \"0 failed\" would read as no harm", () => {
    const audit = auditOf([5_500, 6_000, 21_000]);
    const cards = selectEvidenceCards([evidence({ id: 1, action: 'lostAck', t: 5_000 }), evidence({ id: 2, t: 20_000 })], [], { poolSize: 2048, nowMs: 25_000 }, audit);
    const lostAck = cards.find((c) => c.id === 1);
    expect(lostAck?.facts).toContain('2 ambiguous writes, applied but the caller could not know: 2 applied but reported failed (listed in Ambiguous writes)');
    expect(lostAck?.severity).not.toBe('ok');
    expect(cards.find((c) => c.id === 2)?.facts).toContain('1 ambiguous write, applied but the caller could not know: 1 applied but reported failed (listed in Ambiguous writes)');
    // none in its span: no such fact
    expect(selectEvidenceCards([evidence({ t: 22_000 })], [], { poolSize: 2048, nowMs: 25_000 }, audit)[0]?.facts.some((f) => f.includes('ambiguous'))).toBe(false);
    expect(selectEvidenceCards([evidence()], [], { poolSize: 2048, nowMs: 25_000 })[0]?.facts.some((f) => f.includes('ambiguous'))).toBe(false);
  });

  it('a card names its writes by case, in the panel\'s words', () => {
    const a = new ApplyTracker();
    const write = (op: number, applies: number, status: 'Ok' | 'Conflict') => {
      a.opStart({ ...newOpStart(), t: 5_100, op, kind: 'put', key: `k${op}` });
      for (let i = 0; i < applies; i++) a.onApply(op);
      a.opEnd({ ...newOpEnd(), t: 5_200, op, status: status === 'Ok' ? KvStatus.Ok : KvStatus.Conflict, attempts: 2, latencyMs: 100, reason: status === 'Ok' ? 'success' : 'realAnswer' });
    };
    write(1, 2, 'Ok');
    write(2, 2, 'Ok');
    write(3, 1, 'Conflict');
    const card = selectEvidenceCards([evidence({ t: 5_000 })], [], { poolSize: 2048, nowMs: 6_000 }, a.view())[0];
    expect(card?.facts).toContain('3 ambiguous writes, applied but the caller could not know: 2 applied twice, 1 Conflict from its own attempt (listed in Ambiguous writes)');
  });

  it('counts exactly where the list reaches or the span runs to the end, and gives a lower bound elsewhere', () => {
    // 55 writes known at 5.100–5.154 s; the list holds the first 50 (to 5.149 s)
    const audit = auditOf(Array.from({ length: MAX_LISTED + 5 }, (_, i) => 5_100 + i));
    const total = MAX_LISTED + 5;
    // the last fault's span runs to the end: the total less the writes known before it
    expect(ambiguousDuring(audit, 5_000, Infinity)).toEqual({ count: total, atLeast: false, total, byCase: { appliedReportedFailed: total, appliedTwice: 0, ownConflict: 0 } });
    expect(ambiguousDuring(audit, 5_120, Infinity)).toEqual({ count: total - 20, atLeast: false, total, byCase: { appliedReportedFailed: total - 20, appliedTwice: 0, ownConflict: 0 } });
    // a span that ends before the list does is exact
    expect(ambiguousDuring(audit, 5_000, 5_110)).toEqual({ count: 10, atLeast: false, total, byCase: { appliedReportedFailed: 10, appliedTwice: 0, ownConflict: 0 } });
    // a span that ends past the list (a later fault at 5.152 s): the listed ones are a lower bound
    expect(ambiguousDuring(audit, 5_000, 5_152)).toEqual({ count: MAX_LISTED, atLeast: true, total, byCase: null });
    expect(ambiguousDuring(audit, 5_150, 5_160)).toEqual({ count: 0, atLeast: true, total, byCase: null });
    // the only fault's card names them all; an earlier fault's card gives the bound with the session's total beside it
    expect(selectEvidenceCards([evidence({ t: 5_000 })], [], { poolSize: 2048, nowMs: 25_000 }, audit)[0]?.facts).toContain(
      `${total} ambiguous writes, applied but the caller could not know: ${total} applied but reported failed (listed in Ambiguous writes)`,
    );
    const two = selectEvidenceCards([evidence({ id: 1, t: 5_000 }), evidence({ id: 2, t: 5_152 })], [], { poolSize: 2048, nowMs: 25_000 }, audit);
    expect(two.find((c) => c.id === 1)?.facts).toContain(`at least ${MAX_LISTED} of the session's ${total} ambiguous writes: applied, but the caller could not know (listed in Ambiguous writes)`);
  });
});

describe('fault cards on random audit streams', () => {
  it('every card\'s count is exact and equals a count over all writes, on random streams with late applies and marks', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rng = Rng.seeded(seed);
      const a = new ApplyTracker();
      const endT = new Map<number, number>();
      const applies = new Map<number, number>();
      const outcome = new Map<number, 'Ok' | 'Timeout'>();
      // each write counts under its first matching case (a late apply can make an ended write ambiguous, never change its case)
      const caseOf = new Map<number, AmbiguousCase>();
      const classifyEnded = (op: number) => {
        const o = outcome.get(op);
        if (o === undefined || caseOf.has(op)) return;
        const c = classifyWrite(applies.get(op) ?? 0, o === 'Ok' ? KvStatus.Ok : TransportErrorCode.Timeout);
        if (c !== null) caseOf.set(op, c);
      };
      const open: number[] = [];
      const faults: number[] = [];
      let next = 1;
      for (let t = 0; t < 2_000; t++) {
        const r = rng.next();
        if (r < 0.45) {
          const op = next++;
          a.opStart({ ...newOpStart(), t, op, kind: 'put', key: `k${op}` });
          open.push(op);
          applies.set(op, 0);
        } else if (r < 0.7 && open.length > 0) {
          const op = open.splice(rng.int(0, open.length - 1), 1)[0] as number;
          const o = rng.next() < 0.5 ? 'Ok' : 'Timeout';
          a.opEnd({ ...newOpEnd(), t, op, ...(o === 'Ok' ? { status: KvStatus.Ok } : { status: undefined, error: TransportErrorCode.Timeout }), attempts: 2, latencyMs: 5, reason: o === 'Ok' ? 'success' : 'attemptsExhausted' });
          endT.set(op, t);
          outcome.set(op, o);
          classifyEnded(op);
        } else if (r < 0.97 && next > 1) {
          // an apply: in flight, or late (its op ended)
          const op = rng.int(Math.max(1, next - 60), next - 1);
          a.onApply(op);
          applies.set(op, (applies.get(op) ?? 0) + 1);
          classifyEnded(op);
        } else if (rng.next() < 0.5) {
          a.emit({ t, type: 'fault', action: 'failover', node: 1, segments: [] });
          faults.push(t);
        } else if (t > 20) {
          // a fault heard of late, as the live client worker does
          const ft = t - rng.int(1, 20);
          if (ft > (faults[faults.length - 1] ?? -1)) {
            a.mark(ft);
            faults.push(ft);
          }
        }
      }
      const found = [...caseOf].map(([op, c]) => ({ t: endT.get(op) as number, c }));
      const ambiguous = found.map((w) => w.t);
      const view = a.view();
      expect(view.ambiguous.total, `seed ${seed}`).toBe(ambiguous.length);
      expect(view.ambiguous.total, `seed ${seed}: the list is capped, so the marks do the work`).toBeGreaterThan(MAX_LISTED);
      faults.forEach((f, i) => {
        const to = faults[i + 1] ?? Infinity;
        const inSpan = found.filter((w) => w.t >= f && w.t < to);
        const byCase = { appliedReportedFailed: 0, appliedTwice: 0, ownConflict: 0 };
        for (const w of inSpan) byCase[w.c]++;
        expect(ambiguousDuring(view, f, to), `seed ${seed}, fault at ${f}`).toEqual({ count: inSpan.length, atLeast: false, total: ambiguous.length, byCase });
      });
    }
  });
});
