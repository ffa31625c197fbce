import { describe, expect, it } from 'vitest';
import { FaultEvidenceTracker } from './faultEvidence';

/** `perStep` served healthy ops in every 100 ms step of [from, to) */
function serve(ev: FaultEvidenceTracker, from: number, to: number, perStep: number): void {
  for (let step = from; step < to; step += 100) for (let i = 0; i < perStep; i++) ev.opEnd(step + (i * 100) / perStep, -1, true, true);
}

describe('fault evidence: the healthy baseline', () => {
  it('is scaled to the segments that stay healthy, so losing the traffic of the segments a fault took is not "healthy throughput lost"', () => {
    // a fault that names half the segments: the healthy half serves on at its own rate, half the total
    const scaledRun = new FaultEvidenceTracker();
    serve(scaledRun, 0, 3_000, 30);
    scaledRun.fault(3_000, 'failover', 1, 32, 0.5);
    serve(scaledRun, 3_000, 6_000, 14);
    const e = scaledRun.list()[0];
    expect(e?.healthyBaselinePerSec).toBeCloseTo(150, 6);
    expect(e?.healthyLostMs).toBe(0);
    // unscaled (a share of 1: the fault named no segment), the same drop is a loss
    const unscaled = new FaultEvidenceTracker();
    serve(unscaled, 0, 3_000, 30);
    unscaled.fault(3_000, 'slow', 1, 0);
    serve(unscaled, 3_000, 6_000, 14);
    expect(unscaled.list()[0]?.healthyBaselinePerSec).toBeCloseTo(300, 6);
    expect(unscaled.list()[0]?.healthyLostMs).toBeGreaterThanOrEqual(2_000);
  });

  it('still calls starved healthy segments starved, whatever the share', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 3_000, 30);
    ev.fault(3_000, 'failover', 1, 22, 42 / 64);
    serve(ev, 3_000, 6_000, 3);
    expect(ev.list()[0]?.healthyLostMs).toBeGreaterThanOrEqual(2_000);
  });
});

describe('fault evidence: served throughput before and during the fault', () => {
  it('the baseline starts at the first operation (the boot before it is not history) and counts every segment', () => {
    const ev = new FaultEvidenceTracker();
    ev.gauges(0, 0, 0); // the cluster boots: events, no operation for 2 s
    for (let step = 2_000; step < 4_000; step += 100) for (let i = 0; i < 20; i++) ev.opEnd(step + i, -1, true, i % 2 === 0);
    ev.fault(4_000, 'lostAck', 0, 22);
    const e = ev.list()[0];
    expect(e?.servedBaselinePerSec).toBeCloseTo(200, 6);
    expect(e?.healthyBaselinePerSec).toBeCloseTo(100, 6);
    expect(e?.servedLowPerSec).toBeNull();
  });

  it('keeps the lowest whole second of served throughput since the fault', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 3_000, 30);
    ev.fault(3_000, 'lostAck', 0, 22);
    serve(ev, 3_000, 3_500, 30);
    serve(ev, 3_500, 4_500, 2); // a second at 20 ops/s
    serve(ev, 4_500, 6_000, 30);
    const e = ev.list()[0];
    expect(e?.servedBaselinePerSec).toBeCloseTo(300, 6);
    expect(e?.servedLowPerSec).toBeCloseTo(20, 6);
  });
});

describe('fault evidence: answers that come slowly', () => {
  /** `perStep` served healthy ops per 100 ms step of [from, to), each taking `latencyMs` */
  const serveAt = (ev: FaultEvidenceTracker, from: number, to: number, perStep: number, latencyMs: number, op0 = 1): void => {
    let op = op0;
    for (let step = from; step < to; step += 100) for (let i = 0; i < perStep; i++) ev.opEnd(step + (i * 100) / perStep, op++, true, true, latencyMs);
  };

  it('counts operations answered over twice as slowly as the p99 before the fault — a slow link hits nothing else — and stays open while they come', () => {
    const ev = new FaultEvidenceTracker();
    serveAt(ev, 0, 3_000, 20, 0.6);
    ev.opEnd(2_950, 999_999, true, true, 50); // one outlier (a collector pause) does not move the p99
    ev.fault(3_000, 'slow', 1, 0);
    const p99 = ev.list()[0]?.slowBaselineMs as number;
    expect(p99).toBeGreaterThanOrEqual(0.6);
    expect(p99).toBeLessThanOrEqual(0.6 * 1.25);
    serveAt(ev, 3_000, 4_000, 20, 1.2, 10_000); // under 2 × p99: not slowed
    serveAt(ev, 4_000, 8_000, 20, 12, 20_000); // the slow link: 12 ms answers
    let e = ev.list()[0];
    expect(e).toMatchObject({ slowed: 800, slowestMs: 12, opsHit: 0, failed: 0, settledT: null });
    // settled 3 s after the last slow answer, not 3 s after the fault
    serveAt(ev, 8_000, 11_500, 20, 0.6, 40_000);
    e = ev.list()[0];
    expect(e?.settledT).toBeGreaterThan(7_900);
    expect(e?.settledT).toBeLessThan(8_000);
  });

  it('does not count an operation the fault hit (a missed attempt) as slowed, nor any before a baseline exists', () => {
    const ev = new FaultEvidenceTracker();
    serveAt(ev, 0, 3_000, 20, 1);
    ev.fault(3_000, 'failover', 1, 22);
    ev.attemptEnd(3_010, 7, false); // op 7's first attempt missed
    ev.opEnd(3_500, 7, true, true, 400); // answered by the retry, slowly: hit, not slowed
    expect(ev.list()[0]).toMatchObject({ opsHit: 1, slowed: 0 });
    const fresh = new FaultEvidenceTracker();
    fresh.fault(0, 'slow', 0, 0);
    fresh.opEnd(50, 1, true, true, 500);
    expect(fresh.list()[0]).toMatchObject({ slowBaselineMs: null, slowed: 0 });
  });
});

describe('fault evidence: one record per fault', () => {
  it('the next fault closes the open record and says when; a quiet client settles it instead', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 2_000, 10);
    ev.fault(2_000, 'lostAck', 0, 22);
    ev.attemptEnd(2_100, 7, false);
    ev.fault(2_900, 'failover', 1, 21);
    const [lostAck, failover] = ev.list();
    expect(lostAck).toMatchObject({ t: 2_000, settledT: null, supersededT: 2_900 });
    expect(failover).toMatchObject({ t: 2_900, settledT: null, supersededT: null });
    serve(ev, 2_900, 7_000, 10);
    expect(ev.list()[1]).toMatchObject({ settledT: 2_900, supersededT: null });
  });

  it('a fault with a duration does not settle while it is in effect, however quiet the client is (a slow link that failed nothing read "settled after 0 s" with seconds still to go)', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 2_000, 10);
    ev.fault(2_000, 'slow', 1, 21, 1, '20× latency for 10 s', 10_000);
    serve(ev, 2_000, 11_000, 10);
    expect(ev.list()[0]).toMatchObject({ untilT: 12_000, settledT: null });
    serve(ev, 11_000, 15_100, 10);
    expect(ev.list()[0]).toMatchObject({ settledT: 12_000 });
  });
});

describe('fault evidence: events from before the fault', () => {
  it('an event folded in after the fault but from before it (another stream) does not count on its card', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 2_000, 10);
    ev.fault(2_000, 'failover', 1, 22);
    ev.attemptEnd(1_990, 7, false); // the client's batch from just before the fault, folded in after it
    ev.opEnd(1_995, 7, false, false);
    ev.attemptStart(1_996, 8, 2, true);
    expect(ev.list()[0]).toMatchObject({ opsHit: 0, failed: 0, retries: 0, overBudget: 0 });
    ev.attemptEnd(2_010, 9, false);
    expect(ev.list()[0]).toMatchObject({ opsHit: 1 });
  });
});

describe('fault evidence: every figure of a card is about the operations it counts as hit', () => {
  it("an operation an earlier fault hit stays that fault's: still retrying or failing after the next fault, it is not the next fault's", () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 2_000, 10);
    ev.fault(2_000, 'scaleOut', 3, 16);
    // 30 operations miss in the first fault's record and keep retrying
    for (let op = 100; op < 130; op++) ev.attemptEnd(2_100, op, false);
    ev.fault(3_000, 'failback', 1, 20);
    // after the failback: they retry, miss again, and 10 end failed — all still the scale-out's
    for (let op = 100; op < 130; op++) {
      ev.attemptStart(3_050, op, 2, false);
      ev.attemptEnd(3_055, op, false);
    }
    for (let op = 100; op < 110; op++) ev.opEnd(3_060, op, false, true);
    // two new operations miss once, retry and are served
    for (const op of [200, 201]) {
      ev.attemptEnd(3_100, op, false);
      ev.attemptStart(3_150, op, 2, false);
      ev.refreshRequest(3_120, op);
      ev.opEnd(3_200, op, true, true);
    }
    ev.refreshRequest(3_130, 120); // an old operation's request: not this card's
    const [scaleOut, failback] = ev.list();
    expect(failback).toMatchObject({ opsHit: 2, failed: 0, retries: 2, refreshRequests: 2 });
    // what the failback found of the scale-out's operations, and what became of them while it was open
    expect(failback?.carried).toEqual([{ from: scaleOut?.id, ops: 30, inFlight: 20, failed: 10 }]);
    // the scale-out's card keeps what it saw until the failback
    expect(scaleOut).toMatchObject({ opsHit: 30, failed: 0, supersededT: 3_000, carried: [] });
  });

  it('a refresh storm still running when a later fault comes: the later card counts none of its stalled operations as hit, nor their stalls', () => {
    // the deadline-replaces-attempts bug: 2,048 operations hit by a failover retry on, past their budget, and stall
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 4_000, 30);
    ev.fault(4_000, 'failover', 1, 21, 43 / 64);
    const storm = Array.from({ length: 2_048 }, (_, i) => 1_000_000 + i);
    const retry = (t: number, n: number) => {
      for (const op of storm) {
        ev.attemptStart(t, op, n, n === 4);
        ev.attemptEnd(t + 50, op, false);
        ev.refreshRequest(t + 51, op);
      }
    };
    for (let n = 1; n <= 5; n++) retry(4_000 + n * 400, n);
    ev.gauges(6_400, 2_048, 2_048);
    // a scale-out while the storm runs; its own harm: 40 new operations that miss once and are answered
    ev.fault(6_500, 'scaleOut', 3, 11, 32 / 43);
    for (let n = 6; n <= 10; n++) retry(6_100 + n * 400, n);
    for (let i = 0; i < 40; i++) {
      const op = 2_000_000 + i;
      ev.attemptStart(6_600, op, 1, false);
      ev.attemptEnd(6_610, op, false);
      ev.refreshRequest(6_611, op);
      ev.attemptStart(6_650, op, 2, false);
      ev.opEnd(6_660, op, true, true, 60);
    }
    ev.gauges(8_000, 2_048, 2_048);
    // 48 of the storm's operations end at their deadline while the scale-out is open
    for (const op of storm.slice(0, 48)) ev.opEnd(8_500, op, false, true);
    ev.gauges(8_600, 2_000, 2_000);
    const [failover, scaleOut] = ev.list();
    expect(failover).toMatchObject({ opsHit: 2_048, overBudget: 2_048, stalledPeak: 2_048, supersededT: 6_500 });
    expect(scaleOut).toMatchObject({ opsHit: 40, failed: 0, retries: 40, refreshRequests: 40, overBudget: 0 });
    // the stalled operations are the failover's: none of them is this card's stall
    expect(scaleOut?.stalledPeak).toBe(0);
    expect(scaleOut?.carried).toEqual([{ from: failover?.id, ops: 2_048, inFlight: 2_000, failed: 48 }]);
  });
});

describe('fault evidence: a pause is not an outage', () => {
  it('paused steps are neither lost healthy throughput nor a low second, and the pause does not settle the record', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 3_000, 30);
    ev.fault(3_000, 'failover', 1, 22, 42 / 64);
    serve(ev, 3_000, 4_000, 30);
    ev.pause(4_000);
    ev.gauges(6_000, 0, 0); // nothing is sent for 5 s
    ev.resume(9_000);
    serve(ev, 9_000, 9_500, 30);
    const open = ev.list()[0];
    expect(open).toMatchObject({ healthyLostMs: 0, settledT: null });
    expect(open?.servedLowPerSec).toBeCloseTo(300, 6);
    // quiet running time: 1 s before the pause, then from the resume: settled 3 s of it after the fault
    serve(ev, 9_500, 12_000, 30);
    expect(ev.list()[0]?.settledT).not.toBeNull();
  });

  it('the same 5 s without a pause are lost', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 3_000, 30);
    ev.fault(3_000, 'failover', 1, 22, 42 / 64);
    serve(ev, 3_000, 4_000, 30);
    ev.attemptEnd(4_000, 9, false);
    ev.gauges(8_900, 0, 1);
    serve(ev, 9_000, 9_500, 30);
    const e = ev.list()[0];
    expect(e?.healthyLostMs).toBeGreaterThanOrEqual(4_000);
    expect(e?.servedLowPerSec).toBe(0);
  });

  it('a pause before the fault is not in the baseline', () => {
    const ev = new FaultEvidenceTracker();
    serve(ev, 0, 2_000, 30);
    ev.pause(2_000);
    ev.resume(6_000);
    serve(ev, 6_000, 7_000, 30);
    ev.fault(7_000, 'failover', 1, 0);
    expect(ev.list()[0]?.servedBaselinePerSec).toBeCloseTo(300, 6);
  });
});
