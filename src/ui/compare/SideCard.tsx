/** One side of the comparison: its label, toggles, verdict and headline numbers. */
import { serviceOf, type ComparisonSide } from '../../core/replay/compare';
import { maxAttemptsOfOneOp, type RunSummary } from '../../core/sim/runScenario';
import { BUG_TOGGLES } from '../../core/client/config';
import { BUG_HELP } from '../controls/BugToggles';
import { formatNumber } from '../panels/chart/format';
import { formatLatency, formatSeconds } from '../store/numberFormat';
import { invariantLabel } from '../store/logSelectors';
import { SIDE_COLOR } from './SideCharts';

export function SideCard({ id, side, summary }: { id: 'a' | 'b'; side: ComparisonSide; summary: RunSummary | null }) {
  const bugs = BUG_TOGGLES.filter((t) => side.client.bugs[t]);
  const inv = summary?.invariants;
  const bad = inv?.checks.filter((c) => !c.ok) ?? [];
  const budget = inv?.checks.find((c) => c.name === 'attemptBudgetKept');
  const svc = summary ? serviceOf(summary) : null;
  return (
    <article className={`side-card side-${id}`} style={{ borderTopColor: SIDE_COLOR[id] }} data-testid={`compare-side-${id}`} aria-label={`Run ${id.toUpperCase()}`}>
      <header>
        <span className="side-tag" style={{ background: SIDE_COLOR[id] }}>
          {id.toUpperCase()}
        </span>
        <h3>{side.label}</h3>
      </header>
      <div className="toggles">
        {bugs.length === 0 ? (
          <span className="badge ok">no bug toggles on</span>
        ) : (
          bugs.map((b) => (
            <span key={b} className="badge bad">
              bug on: {BUG_HELP[b].label}
            </span>
          ))
        )}
        {inv ? (
          <span className={bad.length === 0 ? 'badge ok' : inv.ok ? 'badge expected' : 'badge bad'} data-testid={`compare-verdict-${id}`}>
            {bad.length === 0 ? 'all invariants kept' : inv.ok ? `${bad.map((c) => invariantLabel(c.name)).join(', ')}: violated — explained by the toggle` : 'invariant VIOLATED'}
          </span>
        ) : null}
      </div>
      {summary ? (
        <p className="side-window" id={`side-window-${id}`}>
          figures over the whole run ({formatSeconds(summary.durationMs)})
        </p>
      ) : null}
      {summary ? (
        <dl className="side-figures" aria-describedby={`side-window-${id}`}>
          <div className={budget && !budget.ok ? 'bad' : ''}>
            <dt>max attempts of one op</dt>
            <dd data-testid={`compare-max-attempts-${id}`}>
              {maxAttemptsOfOneOp(summary)}
              <small>
                {' '}
                / budget {summary.client.maxAttempts}
                {summary.attempts.maxPerOpInFlight > summary.attempts.maxPerOp ? ' · an op still in flight at the end' : ''}
              </small>
            </dd>
          </div>
          <div>
            <dt>ops over budget</dt>
            <dd>{formatNumber(budget?.violations ?? 0)}</dd>
          </div>
          <div>
            <dt>refreshes executed</dt>
            <dd>
              {formatNumber(summary.refresh.executed)}
              <small> · peak {formatNumber(summary.refresh.peakExecutedPerSecond)}/s</small>
            </dd>
          </div>
          <div>
            <dt>operations served</dt>
            <dd data-testid={`compare-served-${id}`}>{formatNumber(svc?.served ?? null)}</dd>
          </div>
          <div>
            <dt>p99 latency</dt>
            <dd>{formatLatency(summary.latencyMs.p99)}</dd>
          </div>
          <div>
            <dt>not served</dt>
            <dd data-testid={`compare-not-served-${id}`}>
              {formatNumber(svc?.notServed ?? null)}
              <small>
                {' '}
                · {formatNumber(svc?.failed ?? null)} failed · {formatNumber(svc?.timedOut ?? null)} timed out · {formatNumber(svc?.rejected ?? null)} turned away (pool full)
              </small>
            </dd>
          </div>
        </dl>
      ) : (
        <div className="empty small">running…</div>
      )}
    </article>
  );
}
