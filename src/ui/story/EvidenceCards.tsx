/** One card per fault: what it did, counted from the event stream; stays until dismissed. */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectEvidenceCards, selectHeadline, selectPoolSize } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';

export function EvidenceCards() {
  const { snap, dismissed, workload, running, audit, dismiss } = useDashboard(
    useShallow((s) => ({ snap: s.snapshot, dismissed: s.dismissedEvidence, workload: s.workload, running: s.running, audit: s.writeAudit, dismiss: s.dismissEvidence })),
  );
  const cards = useMemo(() => {
    // the verdict the tiles and the status line show: served again, an open card is recovering
    const serviceHealthy = selectHeadline(snap, running).service.verdict === 'healthy';
    return selectEvidenceCards(snap.evidence, dismissed, { poolSize: selectPoolSize(workload), nowMs: snap.totals.lastT, running, stalledNow: snap.stalledNow, serviceHealthy }, audit);
  }, [snap, dismissed, workload, running, audit]);
  if (cards.length === 0) return null;
  return (
    <section className="evidence" aria-label="Fault evidence">
      {cards.map((c) => (
        <article key={c.id} className={`evidence-card ${c.severity}`} aria-label={`Evidence: ${c.title}`} data-evidence={c.id}>
          <header>
            <h3>{c.title}</h3>
            <span className="evidence-status">{c.status}</span>
            <button type="button" className="btn small ghost" onClick={() => dismiss(c.id)} aria-label={`Dismiss evidence of ${c.title}`} title="Dismiss this card">
              ✕
            </button>
          </header>
          <ul>
            {c.facts.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
        </article>
      ))}
    </section>
  );
}
