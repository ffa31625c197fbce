/**
 * Picking a scenario keeps the bug toggles the user switched on (a toggle is
 * what the user is studying; a scenario is the churn to study it under) and
 * says in one line what else the scenario changed.
 */
import { BUG_TOGGLES, type BugToggles, type ClientConfig } from '../../core/client/config';
import type { Scenario } from '../../core/sim/scenario';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import { selectConfigSummary, selectWorkloadSummary } from '../store/summarySelectors';
import { BUG_HELP } from './BugToggles';

/** the scenario with the toggles that are on now kept on (the scenario's own toggles stay too) */
export function keepBugToggles(scenario: Scenario, current: BugToggles): Scenario {
  const bugs = Object.fromEntries(BUG_TOGGLES.map((b) => [b, scenario.client.bugs[b] || current[b]])) as unknown as BugToggles;
  return { ...scenario, client: { ...scenario.client, bugs } };
}

/** "Loaded scenario "Failover": kept bug toggle Deadline replaces attempts; workload … → …" */
export function describeScenarioChange(before: { readonly client: ClientConfig; readonly workload: WorkloadConfig }, scenario: Scenario, label: string): string {
  const parts: string[] = [];
  const kept = BUG_TOGGLES.filter((b) => before.client.bugs[b]);
  const added = BUG_TOGGLES.filter((b) => scenario.client.bugs[b] && !before.client.bugs[b]);
  if (kept.length > 0) parts.push(`kept bug toggle${kept.length > 1 ? 's' : ''} ${kept.map((b) => BUG_HELP[b].label).join(', ')}`);
  if (added.length > 0) parts.push(`the scenario turned on ${added.map((b) => BUG_HELP[b].label).join(', ')}`);
  const c0 = selectConfigSummary(before.client);
  const c1 = selectConfigSummary(scenario.client);
  if (c0 !== c1) parts.push(`client ${c0} → ${c1}`);
  const w0 = selectWorkloadSummary(before.workload);
  const w1 = selectWorkloadSummary(scenario.workload);
  if (w0 !== w1) parts.push(`workload ${w0} → ${w1}`);
  parts.push(`${scenario.cluster.nodes} nodes · ${scenario.cluster.segments} segments, charts cleared`);
  return `Loaded scenario "${label}": ${parts.join('; ')}.`;
}
