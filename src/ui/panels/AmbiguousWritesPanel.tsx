import { useMemo } from 'react';
import { selectAuditView } from '../store/auditSelectors';
import { useDashboard } from '../store/StoreContext';
import { ChartFrame } from './chart/ChartFrame';
import { useTimeCursor } from './timeCursor';

const CAPTION =
  'Writes whose outcome the client could not know: applied although the caller heard of a failure, applied twice, or a Conflict caused by the write’s own earlier attempt after a lost acknowledgement (retries are at-least-once). ifMatchVersion turns a repeated write into Conflict — re-read, and finding your own value means done; ifAbsent turns it into Conflict = “already done”; an unconditional put simply lands twice.';

/** the ambiguous-write audit: the cluster's applies (the engine's, or the live nodes' apply notices) held against the answers, with op ids */
export function AmbiguousWritesPanel() {
  const audit = useDashboard((s) => s.writeAudit);
  const view = useMemo(() => selectAuditView(audit), [audit]);
  // Replay: the audit of the writes ended by the cursor, not the whole run's
  const replay = useTimeCursor() !== null;
  return (
    <ChartFrame
      title="Ambiguous writes"
      units={replay ? 'at the cursor' : 'this run'}
      hint={CAPTION}
      aside={view.state === 'some' ? <span className="badge expected">{view.total} ambiguous</span> : view.state === 'none' ? <span className="badge ok">{replay ? 'none so far' : 'none'}</span> : null}
      empty={view.state === 'unknown'}
      emptyText="No apply reports. The simulated cluster's nodes report every apply from the start; a real Redis Cluster's servers report none, so on that engine writes whose outcome the client could not know cannot be named."
    >
      <ul className="invariants" aria-label="ambiguous writes">
        <li className="inv">
          <div className="inv-detail">
            {view.audited.toLocaleString('en-US')} writes checked against their applies so far: {view.counts.map((c) => `${c.n} ${c.label}`).join(' · ')}
          </div>
        </li>
        {view.rows.map((r) => (
          <li key={r.op} className={`inv ${r.safeAsAnswered ? 'ok' : 'expected'}`}>
            <div className="inv-head">
              <code>op {r.op}</code>
              <b>{r.label}</b>
            </div>
            <div className="inv-detail">{r.detail}</div>
            <div className="inv-detail">{r.safe}</div>
          </li>
        ))}
        {view.more > 0 ? <li className="inv-detail">… and {view.more} more (the CLI's --json lists up to 50: writes.ambiguous.list)</li> : null}
      </ul>
    </ChartFrame>
  );
}
