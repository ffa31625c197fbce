import { DEFAULT_CLIENT_CONFIG, BUG_TOGGLES } from '../core/client/config';

/** Landing page: what the product is and the client's configuration. */
export function App() {
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
    <main className="landing">
      <h1>Zaris Churn Lab</h1>
      <p>
        Watch a real Zaris client survive ownership churn — failover, scale-out, failback — in a partitioned key/value store: typed
        statuses, retries only for transient ones, a coalesced cluster-map refresh before retrying on the wrong node, and two bounds
        (attempts <em>and</em> a deadline).
      </p>
      <h2>Client configuration</h2>
      <table aria-label="Client configuration">
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
    </main>
  );
}
