/** What this is and what to do, in three steps that tick off as the session goes. */
import { useShallow } from 'zustand/react/shallow';
import { BUG_HELP } from '../controls/BugToggles';
import { keyspaceUnit } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';

export function Guide() {
  const { everStarted, fixedFault, storm, stormFault, realEngine, down } = useDashboard(
    useShallow((s) => ({
      everStarted: s.everStarted,
      realEngine: keyspaceUnit(s.cluster) === 'hash slot',
      // a failover the client kept within its bounds (none of its operations went past the budget)
      fixedFault: s.snapshot.evidence.some((e) => e.action === 'failover' && e.overBudget === 0),
      storm: s.clientConfig.bugs.deadlineReplacesAttempts,
      stormFault: s.snapshot.evidence.some((e) => e.action === 'failover' && e.overBudget > 0),
      // a node still down from step 2: failing another over would take two of the nodes down, not replay the storm
      down: s.cluster?.nodes.find((n) => n.status === 'down')?.id,
    })),
  );
  const stormText = `“${BUG_HELP.deadlineReplacesAttempts.label}” on (left), Failover again: the storm`;
  const steps: { done: boolean; text: string }[] = [
    { done: everStarted, text: 'Start' },
    {
      // ticked by a failover the fixed client handled, not by one with the storm's toggle on
      done: fixedFault,
      text: storm && !fixedFault ? `Failover: the fixed client recovers (turn “${BUG_HELP.deadlineReplacesAttempts.label}” off first)` : 'Failover: the fixed client recovers',
    },
    { done: storm && stormFault, text: down !== undefined && !(storm && stormFault) ? `Failback n${down} (one node down at a time), then ${stormText}` : stormText },
  ];
  return (
    <div className="guide" aria-label="How to use this page">
      <p className="guide-what">
        {realEngine
          ? 'The same Zaris client against a real Redis Cluster on this machine: kill a master, add and restore nodes and watch its retries and map refreshes while Redis promotes a replica — and how a historical client bug turned one failover into an outage.'
          : 'A real Zaris client against a live cluster in Web Workers: crash, add and restore nodes and watch its retries and map refreshes — and how a historical client bug turned one failover into an outage.'}
      </p>
      <ol className="guide-steps">
        {steps.map((s, i) => (
          <li key={i} className={s.done ? 'done' : ''}>
            <span className="step-n" aria-hidden="true">
              {s.done ? '✓' : i + 1}
            </span>
            {s.text}
          </li>
        ))}
      </ol>
    </div>
  );
}
