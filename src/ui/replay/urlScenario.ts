/**
 * Between the shareable URL state and a runnable scenario: a preset or an
 * inline scenario, with the URL's seed and client overrides applied (and
 * back: what a run looks like as URL state). Pure; validation errors are the
 * scenario loader's own InputErrors, naming the field.
 */
import { BUG_TOGGLES, clientConfigDiff, type ClientConfig } from '../../core/client/config';
import { findPreset } from '../../core/sim/presets';
import { loadScenario, scenarioSchema, toScenarioInput, type Scenario, type ScenarioInput } from '../../core/sim/scenario';
import { InputError } from '../../core/validation';
import { encodeJsonParam } from '../urlCodec';
import { MAX_SCENARIO_CHARS, toClientConfigInput, type BugToggle, type ClientOverrides, type ScenarioRef, type UrlState } from '../urlState';

/** the scenario file a ref names (a preset's input, or the inline scenario) */
export function scenarioInputOf(ref: ScenarioRef): ScenarioInput {
  if ('inline' in ref) return ref.inline;
  const preset = findPreset(ref.preset);
  if (preset === undefined) throw new InputError('URL', [{ path: 'preset', message: `unknown preset ${JSON.stringify(ref.preset)}` }]);
  const r = scenarioSchema.safeParse(preset.input);
  if (!r.success) throw new InputError(`preset ${ref.preset}`, [{ path: '', message: r.error.message }]);
  return r.data;
}

/** a scenario file with a seed and client overrides applied (listed bug toggles on, the others off) */
export function withOverrides(input: ScenarioInput, seed: number | undefined, client: ClientOverrides): ScenarioInput {
  const over = toClientConfigInput(client);
  const { bugs: topLevelBugs, ...rest } = input;
  return {
    ...rest,
    ...(seed !== undefined ? { seed } : {}),
    client: { ...input.client, ...over, ...(over.bugs !== undefined ? { bugs: over.bugs } : {}) },
    // top-level `bugs` would override the client's; the URL's list replaces both
    ...(client.bugs === undefined && topLevelBugs !== undefined ? { bugs: topLevelBugs } : {}),
  };
}

/** the URL state's scenario, loaded and validated */
export function scenarioFromUrl(state: Pick<UrlState, 'scenario' | 'seed' | 'client'>): Scenario {
  const input = withOverrides(scenarioInputOf(state.scenario), state.seed, state.client);
  return loadScenario(input, 'preset' in state.scenario ? `preset ${state.scenario.preset}` : 'scenario from the link');
}

/** the client settings where `cur` differs from `base`, as URL overrides */
export function clientOverridesDiff(base: ClientConfig, cur: ClientConfig): ClientOverrides {
  // the URL lists the toggles that are on (not the ones that changed)
  const { bugs, ...rest } = clientConfigDiff(base, cur);
  return (bugs === undefined ? rest : { ...rest, bugs: bugsOn(cur) }) as ClientOverrides;
}

export const bugsOn = (c: ClientConfig): BugToggle[] => BUG_TOGGLES.filter((t) => c.bugs[t]);

/**
 * A scenario as URL state: a preset (with the seed and client overrides
 * that differ from it) when it is one, else inline. `null` when the
 * scenario is too large for a link.
 */
export function urlRefFor(scenario: Scenario, presetId: string | null): Pick<UrlState, 'scenario' | 'seed' | 'client'> | null {
  if (presetId !== null) {
    const base = scenarioFromUrl({ scenario: { preset: presetId }, client: {} });
    const sameShape = JSON.stringify({ ...toScenarioInput(base), seed: 0, client: {} }) === JSON.stringify({ ...toScenarioInput(scenario), seed: 0, client: {} });
    if (sameShape) {
      return { scenario: { preset: presetId }, ...(scenario.seed !== base.seed ? { seed: scenario.seed } : {}), client: clientOverridesDiff(base.client, scenario.client) };
    }
  }
  const inline = toScenarioInput(scenario);
  if (encodeJsonParam(inline).length > MAX_SCENARIO_CHARS) return null;
  return { scenario: { inline }, client: {} };
}
