/**
 * The evidence cards and the service verdict, fed by the deterministic engine: the refresh
 * storm preset against the same failover with the fixed client. Nothing here knows a preset's
 * numbers; the assertions compare the two runs and the bounds they must keep.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { isServed } from '../../core/domain/service';
import type { Outcome } from '../../core/domain/status';
import { findPreset } from '../../core/sim/presets';
import { SimEngine } from '../../core/sim/engine';
import { loadScenario } from '../../core/sim/scenario';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { CarriedOps, FaultEvidence } from '../../core/telemetry/faultEvidence';
import { selectEvidenceCard, selectEvidenceCards, selectHeadline, selectPoolSize, selectSessionState } from './selectors';
import type { TelemetrySnapshot } from './snapshot';
import { TelemetryAggregator } from './telemetryAggregator';

interface Run {
  readonly evidence: FaultEvidence;
  /** the worst served share of any 1 s window after the fault */
  readonly worstShare: number;
  readonly worstState: string;
  readonly final: TelemetrySnapshot;
  readonly pool: number;
  /** the snapshots published, every 500 ms of event time */
  readonly published: readonly TelemetrySnapshot[];
  /** operations with an attempt or an end without a real answer at or after the first fault (each hit by one fault) */
  readonly opsMissed: number;
}

/** runs a preset (its own 16 s), publishing a snapshot every 500 ms of event time; `faults` replace its faults */
function run(preset: string, faults?: readonly unknown[]): Run {
  const input = findPreset(preset)?.input as Record<string, unknown>;
  const scenario = loadScenario(faults === undefined ? input : { ...input, faults });
  const agg = new TelemetryAggregator(() => scenario.client ?? DEFAULT_CLIENT_CONFIG);
  const pool = selectPoolSize(scenario.workload);
  let pending: ZarisEvent[] = [];
  let nextPublish = 500;
  let worstShare = 1;
  let worstState = '';
  let firstFault = Infinity;
  const missed = new Set<number>();
  const published: TelemetrySnapshot[] = [];
  const publish = () => {
    agg.ingestEvents(pending);
    pending = [];
    const snap = agg.snapshot();
    published.push(snap);
    const h = selectHeadline(snap);
    if (snap.evidence.length > 0 && h.service.share !== null && h.service.share < worstShare) {
      worstShare = h.service.share;
      worstState = selectSessionState({ headline: h, started: true, evidence: snap.evidence, poolSize: pool, nowMs: snap.totals.lastT }).state;
    }
  };
  new SimEngine(scenario, {
    sinks: [
      {
        emit: (e) => {
          pending.push(e);
          if (e.type === 'fault') firstFault = Math.min(firstFault, e.t);
          if ((e.type === 'attempt.end' || e.type === 'op.end') && e.t >= firstFault && !isServed((e.status ?? e.error) as Outcome)) missed.add(e.op);
          if (e.t >= nextPublish) {
            nextPublish += 500;
            publish();
          }
        },
      },
    ],
  }).run();
  publish();
  const final = agg.snapshot();
  return { evidence: final.evidence[0] as FaultEvidence, worstShare, worstState, final, pool, published, opsMissed: missed.size };
}

describe('fault evidence from the event stream', () => {
  const storm = run('refresh-storm');
  const fixed = run('failover');

  it('the storm leaves its cause on the card: attempts past the budget, refresh amplification, a held pool, starved healthy segments', () => {
    const e = storm.evidence;
    expect(e.action).toBe('failover');
    expect(e.overBudget).toBeGreaterThan(0);
    expect(e.rejected).toBeGreaterThan(0);
    expect(e.stalledPeak).toBeGreaterThanOrEqual(0.5 * storm.pool);
    expect(e.healthyLostMs).toBeGreaterThanOrEqual(1000);
    expect(e.refreshRequests / e.opsHit).toBeGreaterThan(fixed.evidence.refreshRequests / fixed.evidence.opsHit);
    const card = selectEvidenceCard(e, { poolSize: storm.pool, nowMs: storm.final.totals.lastT });
    expect(card.severity).toBe('bad');
    expect(card.facts[0]).toBe(`attempt budget exceeded by ${e.overBudget.toLocaleString('en-US')} ops`);
    expect(card.facts.some((f) => /^healthy throughput lost for \d/.test(f))).toBe(true);
    expect(card.facts.some((f) => / refresh requests? per op hit$/.test(f))).toBe(true);
  });

  it('the fixed client keeps its budget and its pool; its card says so by what it leaves out', () => {
    const e = fixed.evidence;
    expect(e.overBudget).toBe(0);
    expect(e.rejected).toBe(0);
    expect(e.stalledPeak).toBeLessThan(0.5 * fixed.pool);
    expect(e.opsHit).toBeGreaterThan(0);
    expect(e.retries / e.opsHit).toBeLessThanOrEqual(2); // ≤ 3 attempts per op
    // the fault settles once the map is fixed and nothing fails for 3 s
    expect(e.settledT).not.toBeNull();
    expect(selectEvidenceCard(e, { poolSize: fixed.pool, nowMs: fixed.final.totals.lastT }).severity).not.toBe('bad');
  });

  it('the storm, which fails nothing, never reads healthier than the fixed client failing fast', () => {
    expect(storm.evidence.failed).toBeLessThan(fixed.evidence.failed);
    expect(storm.worstShare).toBeLessThan(fixed.worstShare);
    expect(storm.worstState).toBe('storm');
    expect(fixed.worstState).toBe('fault');
  });
});

describe('a later fault while an earlier fault\'s refresh storm still runs', () => {
  // the refresh storm's failover at 4 s; at 6.5 s its 2,048 operations still retry past their budget and stall when node 3 joins
  const r = run('refresh-storm', [
    { atMs: 4000, action: 'failover', node: 1 },
    { atMs: 6500, action: 'scaleOut' },
  ]);
  const [failover, scaleOut] = r.final.evidence as [FaultEvidence, FaultEvidence];

  it("each operation hit is counted by one card: the scale-out's does not count the storm's operations as hit", () => {
    expect(failover.overBudget).toBeGreaterThanOrEqual(0.5 * r.pool);
    const sum = r.final.evidence.reduce((n, e) => n + e.opsHit, 0);
    expect(sum).toBe(r.opsMissed);
    // the storm's operations were in flight when node 3 joined: the scale-out found them, and keeps them apart
    expect(scaleOut.carried).toHaveLength(1);
    expect(scaleOut.carried[0]?.from).toBe(failover.id);
    expect(scaleOut.carried[0]?.ops).toBeGreaterThanOrEqual(0.5 * r.pool);
    expect(scaleOut.opsHit).toBeLessThan(scaleOut.carried[0]?.ops ?? 0);
    expect(scaleOut.overBudget).toBeLessThan(0.5 * r.pool);
    expect(scaleOut.stalledPeak).toBeLessThan(0.5 * r.pool);
  });

  it("the scale-out's open card names the storm's operations still stalled beside its facts, and counts none of them in its own", () => {
    // 1 s after the scale-out, the storm still holds the pool
    const snap = r.published.find((s) => s.totals.lastT >= 7_500) as TelemetrySnapshot;
    const open = snap.evidence.find((e) => e.id === scaleOut.id) as FaultEvidence;
    const carried = open.carried[0] as CarriedOps;
    expect(snap.stalledNow).toBeGreaterThanOrEqual(carried.inFlight);
    expect(carried.inFlight).toBeGreaterThan(0);
    const card = selectEvidenceCards(snap.evidence, [], { poolSize: r.pool, nowMs: snap.totals.lastT, stalledNow: snap.stalledNow }).find((c) => c.id === scaleOut.id);
    expect(card?.tookOver).toBe('the failover (crash) of node 1 at 4 s');
    const still = `${carried.inFlight.toLocaleString('en-US')} ops still stalled from the failover (crash) of node 1 at 4 s (${carried.ops.toLocaleString('en-US')} in flight when this fault came`;
    expect(card?.tookOverNote).toContain(`Took over from the failover (crash) of node 1 at 4 s, still ongoing when this fault came. ${still}`);
    // its own figures: the ops it hit, and of the stalled gauge only what is not the storm's
    const own = snap.stalledNow - carried.inFlight;
    const hit = card?.facts.find((f) => / ops? hit, /.test(f));
    if (open.opsHit > 0) expect(hit).toBe(`${open.opsHit.toLocaleString('en-US')} ops hit, ${open.failed.toLocaleString('en-US')} failed${own > 0 ? `, ${own.toLocaleString('en-US')} still stalled` : ''}`);
    else expect(hit).toBeUndefined();
    expect(open.opsHit).toBeLessThan(carried.ops);
  });
});
