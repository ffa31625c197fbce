/**
 * What a Compare link asks for: the scenario (preset or inline, seed and
 * client overrides applied) and the A/B toggle pair — a lone `cmpA` or `cmpB`
 * keeps the scenario's suggestion for the other side. One function, used by
 * the view and by the early start at page load, so both ask for the same runs.
 */
import type { Scenario } from '../../core/sim/scenario';
import { scenarioFromUrl } from '../replay/urlScenario';
import type { UrlState } from '../urlState';
import { defaultPair, type TogglePair } from './pairs';

export type CompareRequest = { readonly scenario: Scenario; readonly pair: TogglePair; readonly loadError: null } | { readonly scenario: null; readonly pair: null; readonly loadError: string };

export function compareRequest(part: Pick<UrlState, 'scenario' | 'seed' | 'client' | 'compare'>): CompareRequest {
  try {
    const scenario = scenarioFromUrl(part);
    const def = defaultPair(scenario);
    return { scenario, pair: { a: part.compare?.a ?? def.a, b: part.compare?.b ?? def.b }, loadError: null };
  } catch (e) {
    return { scenario: null, pair: null, loadError: e instanceof Error ? e.message : String(e) };
  }
}
