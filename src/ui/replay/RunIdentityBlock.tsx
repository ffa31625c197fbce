/** The run's identity, always visible: scenario, seed, source, cluster, client configuration, bug toggles. */
import type { ReactNode } from 'react';
import { BUG_TOGGLES } from '../../core/client/config';
import { BUG_HELP } from '../controls/BugToggles';
import type { RunIdentity } from '../export/caption';
import { selectConfigSummary } from '../store/selectors';
import './identity.css';

export interface RunIdentityBlockProps {
  readonly identity: RunIdentity;
  /** a further line (e.g. the workload) */
  readonly extra?: string;
  /** replaces the bug toggle badges (e.g. "per side" in the comparison) */
  readonly toggles?: ReactNode;
  /** after the toggle badges (e.g. the verdict) */
  readonly badges?: ReactNode;
}

export function RunIdentityBlock({ identity, extra, toggles, badges }: RunIdentityBlockProps) {
  const c = identity.client;
  const bugs = c === null ? null : BUG_TOGGLES.filter((b) => c.bugs[b]);
  return (
    <div className="identity" aria-label="Run identity" data-testid="run-identity">
      <div className="id-line">
        <b className="run-name" data-testid="identity-scenario">
          {identity.scenario}
        </b>
        <span className="id-fact">
          seed <b data-testid="identity-seed">{identity.seed ?? 'unknown'}</b>
        </span>
        {identity.nodes !== null ? (
          <span className="id-fact">
            <b>{identity.nodes}</b> nodes{identity.nodesNotUp ? <span data-testid="identity-nodes-not-up"> ({identity.nodesNotUp})</span> : null} · <b>{identity.segments}</b> segments
          </span>
        ) : null}
        <span className="id-fact k">{identity.source}</span>
      </div>
      <div className="k">{c === null ? 'client configuration unknown (imported events)' : selectConfigSummary(c)}</div>
      {extra ? <div className="k">{extra}</div> : null}
      <div className="toggles">
        {toggles !== undefined ? (
          toggles
        ) : bugs === null ? (
          <span className="badge muted">bug toggles unknown</span>
        ) : bugs.length === 0 ? (
          <span className="badge ok">no bug toggles on</span>
        ) : (
          bugs.map((b) => (
            <span key={b} className="badge bad" title={BUG_HELP[b].help}>
              bug on: {BUG_HELP[b].label}
            </span>
          ))
        )}
        {badges}
      </div>
    </div>
  );
}
