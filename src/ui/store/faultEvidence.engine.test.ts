/**
 * The evidence cards and the service verdict, fed by the deterministic engine: the refresh
 * storm preset against the same failover with the fixed client. Nothing here knows a preset's
 * numbers; the assertions compare the two runs and the bounds they must keep.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { findPreset } from '../../core/sim/presets';
import { SimEngine } from '../../core/sim/engine';
import { loadScenario } from '../../core/sim/scenario';
import type { ZarisEvent } from '../../core/telemetry/events';
import type { FaultEvidence } from '../../core/telemetry/faultEvidence';
import { selectEvidenceCard, selectHeadline, selectPoolSize, selectSessionState } from './selectors';
import type { TelemetrySnapshot } from './snapshot';
import { TelemetryAggregator } from './telemetryAggregator';

interface Run {
  readonly evidence: FaultEvidence;
  /** the worst served share of any 1 s window after the fault */
  readonly worstShare: number;
  readonly worstState: string;
  readonly final: TelemetrySnapshot;
  readonly pool: number;
}

/** runs a preset (its own 16 s), publishing a snapshot every 500 ms of event time */
function run(preset: string): Run {
  const input = findPreset(preset)?.input;
  const scenario = loadScenario(input);
  const agg = new TelemetryAggregator(() => scenario.client ?? DEFAULT_CLIENT_CONFIG);
  const pool = selectPoolSize(scenario.workload);
  let pending: ZarisEvent[] = [];
  let nextPublish = 500;
  let worstShare = 1;
  let worstState = '';
  const publish = () => {
    agg.ingestEvents(pending);
    pending = [];
    const snap = agg.snapshot();
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
  return { evidence: final.evidence[0] as FaultEvidence, worstShare, worstState, final, pool };
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
