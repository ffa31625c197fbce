/**
 * Which two client configurations to compare, as the URL carries them: the
 * bug toggles on in run A and in run B (everything else is the scenario's
 * client). The default is the scenario's suggestion (`defaultComparison`):
 * the storm toggle off vs on, or the toggle the scenario has on.
 */
import { BUG_TOGGLES, NO_BUGS, type ClientConfig } from '../../core/client/config';
import { defaultComparison, type ComparisonPair, type ComparisonSide } from '../../core/replay/compare';
import type { Scenario } from '../../core/sim/scenario';
import { BUG_HELP } from '../controls/BugToggles';
import type { BugToggle } from '../urlState';

export interface TogglePair {
  readonly a: readonly BugToggle[];
  readonly b: readonly BugToggle[];
}

const on = (c: ClientConfig): BugToggle[] => BUG_TOGGLES.filter((t) => c.bugs[t]);

/** the scenario's suggested pair, as toggle lists */
export function defaultPair(scenario: Scenario): TogglePair {
  const p = defaultComparison(scenario);
  return { a: on(p.a.client), b: on(p.b.client) };
}

/** "fixed client, no bug toggles" or "bug on: …" (no brackets: sentences quote it as "A (…)") */
export function sideLabel(toggles: readonly BugToggle[]): string {
  return toggles.length === 0 ? 'fixed client, no bug toggles' : `bug on: ${toggles.map((t) => BUG_HELP[t].label.toLowerCase()).join(' + ')}`;
}

function side(scenario: Scenario, toggles: readonly BugToggle[]): ComparisonSide {
  const bugs: Record<BugToggle, boolean> = { ...NO_BUGS };
  for (const t of toggles) bugs[t] = true;
  return { label: sideLabel(toggles), client: { ...scenario.client, bugs } };
}

/** the two sides for toggle lists */
export function pairOf(scenario: Scenario, pair: TogglePair): ComparisonPair {
  const diff = BUG_TOGGLES.find((t) => pair.a.includes(t) !== pair.b.includes(t)) ?? 'deadlineReplacesAttempts';
  return { toggle: diff, a: side(scenario, pair.a), b: side(scenario, pair.b) };
}

/** one-click pairs: each toggle off (A) vs on (B), the scenario's other toggles kept in both */
export function quickPairs(scenario: Scenario): { readonly id: string; readonly label: string; readonly pair: TogglePair }[] {
  const base = on(scenario.client);
  return BUG_TOGGLES.map((t) => ({
    id: t,
    label: `${BUG_HELP[t].label}: off vs on`,
    pair: { a: base.filter((x) => x !== t), b: BUG_TOGGLES.filter((x) => x === t || base.includes(x)) },
  }));
}

export const samePair = (x: TogglePair, y: TogglePair): boolean => x.a.join() === y.a.join() && x.b.join() === y.b.join();
