import { describe, expect, it } from 'vitest';
import { findPreset } from '../sim/presets';
import { loadScenario, type ScenarioInput } from '../sim/scenario';
import { MAX_LISTED } from '../sim/applyTracker';
import { runScenario } from '../sim/runScenario';
import { recordScenario } from './recordRun';

describe('the recorded write audit (Replay)', () => {
  it('notes the ambiguous writes known before every fault, at the fault events\' times, as the headless run counts them', () => {
    const input = findPreset('lost-ack')?.input as ScenarioInput;
    // two lost-ack faults, then a failover: the first span alone holds more writes than the audit lists
    const scenario = loadScenario(
      {
        ...input,
        faults: [
          { atMs: 2_000, action: 'lostAck', node: 0, durationMs: 2_000, probability: 0.5 },
          { atMs: 4_500, action: 'lostAck', node: 1, durationMs: 1_000, probability: 0.5 },
          { atMs: 7_000, action: 'failover', node: 2 },
        ],
      },
      'three faults',
    );
    const rec = recordScenario(scenario);
    const audit = rec.views.auditAt(scenario.durationMs);
    const marks = audit?.knownBefore ?? [];
    expect(marks.map((m) => m.t)).toEqual([2_000, 4_500, 7_000]);
    expect(marks.every((m) => m.exact)).toBe(true);
    // counts only grow, and the first span is past the list (the marks are what make it exact)
    const total = audit?.ambiguous.total ?? 0;
    const counts = [...marks.map((m) => m.count), total];
    for (let i = 1; i < counts.length; i++) expect(counts[i]).toBeGreaterThanOrEqual(counts[i - 1] as number);
    expect((counts[1] as number) - (counts[0] as number)).toBeGreaterThan(MAX_LISTED);
    // the same run headless: the same total (the marks are the dashboard's, the summary is unchanged)
    const summary = runScenario(scenario).summary;
    expect(summary.writes.ambiguous.total).toBe(total);
    expect(summary.writes).not.toHaveProperty('knownBefore');
    // a cursor between two faults sees only the faults before it
    expect(rec.views.auditAt(5_000)?.knownBefore?.map((m) => m.t)).toEqual([2_000, 4_500]);
  });
});
