import { DEFAULT_CLIENT_CONFIG, BUG_TOGGLES } from '../core/client/config';

/** What the product is, and the client's default configuration (the former landing page). */
export function About() {
  const c = DEFAULT_CLIENT_CONFIG;
  const rows: [string, string][] = [
    ['maxAttempts', String(c.maxAttempts)],
    ['backoffMillis', `${c.backoffMillis} ms`],
    ['operation deadline (ZARIS_REQUEST_TIMEOUT)', c.operationTimeoutMs === null ? 'infinite' : `${c.operationTimeoutMs / 1000} s`],
    ['disable retries (ZARIS_DISABLE_RETRIES)', String(c.disableRetries)],
    ['refresh wait budget (ZARIS_CLIENT_MAP_REFRESH_WAIT_MS)', `${c.refreshWaitBudgetMs} ms`],
    ['refresh debounce', `${c.refreshDebounceMs} ms`],
    ['attempt timeout', `${c.attemptTimeoutMs} ms`],
  ];
  return (
    <details className="side-section about">
      <summary>About Zaris Churn Lab</summary>
      <p>
        Watch a real Zaris client survive ownership churn — failover, scale-out, failback — in a partitioned key/value store: typed
        statuses, retries only for transient ones, a coalesced cluster-map refresh before retrying on the wrong node, and two bounds
        (attempts <em>and</em> a deadline).
      </p>
      <table aria-label="Default client configuration">
        <tbody>
          {rows.map(([k, v]) => (
            <tr key={k}>
              <th scope="row">{k}</th>
              <td>{v}</td>
            </tr>
          ))}
          <tr>
            <th scope="row">bug toggles</th>
            <td>{BUG_TOGGLES.map((b) => `${b}: ${c.bugs[b] ? 'on' : 'off'}`).join(', ')}</td>
          </tr>
        </tbody>
      </table>
    </details>
  );
}
