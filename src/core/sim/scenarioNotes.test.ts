import { describe, expect, it } from 'vitest';
import { PRESET_IDS, findPreset } from './presets';
import { loadScenario, type ScenarioInput } from './scenario';
import { scenarioNotes } from './scenarioNotes';

const base: ScenarioInput = { name: 'n', seed: 1, durationMs: 1000 };
const notes = (workload: ScenarioInput['workload'], changes?: ScenarioInput['changes']) =>
  scenarioNotes(loadScenario({ ...base, workload, ...(changes ? { changes } : {}) }, 'test', {}));

describe('scenario notes: settings that cannot act', () => {
  it('name thinkMs without closed-loop users, zipfExponent with a uniform distribution, maxInFlight without arrivals, casMaxRereads without cas', () => {
    expect(notes({ ratePerSec: 100, thinkMs: 250 })).toEqual([
      'workload.thinkMs (250) has no effect: it is the pause of a closed-loop user between operations, and the workload has no closed-loop users (concurrency 0)',
    ]);
    expect(notes({ zipfExponent: 1.3 })).toEqual(['workload.zipfExponent (1.3) has no effect: the key distribution is "uniform"; set distribution "zipf" to use it']);
    expect(notes({ concurrency: 4, maxInFlight: 9 })[0]).toMatch(/^workload\.maxInFlight \(9\) has no effect: .*ratePerSec is 0/);
    expect(notes({ casMaxRereads: 2, mix: { get: 1 } })[0]).toMatch(/^workload\.casMaxRereads \(2\) has no effect: .*no cas/);
  });

  it('say nothing when the setting acts', () => {
    expect(notes({ concurrency: 2, thinkMs: 250 })).toEqual([]);
    expect(notes({ distribution: 'zipf', zipfExponent: 1.3 })).toEqual([]);
    expect(notes({ ratePerSec: 100, maxInFlight: 9 })).toEqual([]);
    expect(notes({ casMaxRereads: 2, mix: { cas: 1 } })).toEqual([]);
  });

  it('judge the whole schedule: a setting that acts in a later phase gets no note, one that acts in none does', () => {
    expect(notes({ ratePerSec: 100, thinkMs: 250 }, [{ atMs: 500, workload: { concurrency: 3 } }])).toEqual([]);
    expect(notes({ ratePerSec: 100 }, [{ atMs: 500, workload: { thinkMs: 40 } }])).toHaveLength(1);
  });

  it('no preset has one', () => {
    for (const id of PRESET_IDS) expect([id, scenarioNotes(loadScenario(findPreset(id)?.input as ScenarioInput, id, {}))]).toEqual([id, []]);
  });
});
