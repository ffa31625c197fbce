import { useShallow } from 'zustand/react/shallow';
import { BUG_HELP } from './controls/BugToggles';
import { keyspaceText, selectBugsOn, selectConfigSummary, selectWorkloadSummary } from './store/selectors';
import { useDashboard } from './store/StoreContext';
import { nodesNotUpText } from './store/clusterSelectors';

/** product name, session identity (scenario, seed, config, toggles) and headline figures */
export function Header() {
  const { session, config, workload, cluster } = useDashboard(
    useShallow((s) => ({ session: s.session, config: s.clientConfig, workload: s.workload, cluster: s.cluster })),
  );
  const bugs = selectBugsOn(config.bugs);
  // a crashed node is still one of the cluster's: named, as Replay's header and the exports do ("4 nodes (1 down)")
  const notUp = cluster !== null ? nodesNotUpText(cluster) : '';
  return (
    <header className="app-header">
      <div className="brand">
        <h1>Zaris Churn Lab</h1>
        <p className="tagline">live playground · a real client under ownership churn</p>
      </div>
      <div className="identity" aria-label="Session">
        <div>
          <span className="k">scenario</span> <b>{session.scenario}</b> <span className="k">seed</span> <b>{session.seed}</b> <span className="k">cluster</span>{' '}
          <b>
            {cluster?.nodes.length ?? session.nodes} nodes{notUp !== '' ? <span data-testid="header-nodes-not-up"> ({notUp})</span> : null} · {keyspaceText(cluster, session.segments)}
          </b>
        </div>
        <div className="k">{selectConfigSummary(config)}</div>
        <div className="k">{selectWorkloadSummary(workload)}</div>
        <div className="toggles">
          {bugs.length === 0 ? (
            <span className="badge ok">no bug toggles on</span>
          ) : (
            bugs.map((b) => (
              <span key={b} className="badge bad" title={BUG_HELP[b].help}>
                bug on: {BUG_HELP[b].label}
              </span>
            ))
          )}
        </div>
      </div>
    </header>
  );
}
