import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { loadScenario, toScenarioInput } from '../../core/sim/scenario';
import { findPreset } from '../../core/sim/presets';
import { InputError } from '../../core/validation';
import { clientOverridesDiff, scenarioFromUrl, urlRefFor, withOverrides } from './urlScenario';

describe('URL state ⇄ scenario', () => {
  it('loads a preset with the seed and client overrides applied', () => {
    const s = scenarioFromUrl({ scenario: { preset: 'failover' }, seed: 7, client: { maxAttempts: 5, operationTimeoutMs: 'infinite', bugs: ['noRefreshCoalescing'] } });
    expect(s.name).toBe('failover');
    expect(s.seed).toBe(7);
    expect(s.client.maxAttempts).toBe(5);
    expect(s.client.operationTimeoutMs).toBeNull();
    expect(s.client.bugs).toEqual({ ...DEFAULT_CLIENT_CONFIG.bugs, noRefreshCoalescing: true });
  });

  it("the URL's bug list replaces the scenario's toggles (top-level `bugs` included)", () => {
    const input = { name: 'x', seed: 1, durationMs: 1000, bugs: { deadlineReplacesAttempts: true } };
    expect(loadScenario(withOverrides(input, undefined, { bugs: [] })).client.bugs.deadlineReplacesAttempts).toBe(false);
    expect(loadScenario(withOverrides(input, undefined, {})).client.bugs.deadlineReplacesAttempts).toBe(true);
    expect(scenarioFromUrl({ scenario: { preset: 'refresh-storm' }, client: { bugs: [] } }).client.bugs.deadlineReplacesAttempts).toBe(false);
  });

  it('names the bad field of an inline scenario or an unknown preset', () => {
    expect(() => scenarioFromUrl({ scenario: { preset: 'nope' }, client: {} })).toThrow(InputError);
    expect(() => scenarioFromUrl({ scenario: { inline: { name: 'x', seed: 1, durationMs: 1000, faults: [{ atMs: 5000, action: 'failover', node: 1 }] } }, client: {} })).toThrow(/faults\[0\]\.atMs/);
  });

  it('writes a run back as the preset plus what differs, or inline', () => {
    const storm = scenarioFromUrl({ scenario: { preset: 'refresh-storm' }, seed: 3, client: { maxAttempts: 4 } });
    expect(urlRefFor(storm, 'refresh-storm')).toEqual({ scenario: { preset: 'refresh-storm' }, seed: 3, client: { maxAttempts: 4 } });
    const edited = { ...storm, durationMs: 9000 };
    const ref = urlRefFor(edited, 'refresh-storm');
    expect(ref).toEqual({ scenario: { inline: toScenarioInput(edited) }, client: {} });
    expect(ref && scenarioFromUrl(ref)).toEqual(edited);
  });

  it('diffs client configurations into URL overrides', () => {
    const base = loadScenario(findPreset('failover')?.input).client;
    expect(clientOverridesDiff(base, base)).toEqual({});
    expect(clientOverridesDiff(base, { ...base, operationTimeoutMs: null, bugs: { ...base.bugs, retryConflict: true } })).toEqual({ operationTimeoutMs: 'infinite', bugs: ['retryConflict'] });
  });
});
