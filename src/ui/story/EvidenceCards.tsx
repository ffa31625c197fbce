/** One card per fault: what it did, counted from the event stream; stays until dismissed. */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectEvidenceCards, selectPoolSize } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';

export function EvidenceCards() {
  const { evidence, dismissed, workload, lastT, running, stalledNow, audit, dismiss } = useDashboard(
    useShallow((s) => ({ evidence: s.snapshot.evidence, dismissed: s.dismissedEvidence, workload: s.workload, lastT: s.snapshot.totals.lastT, running: s.running, stalledNow: s.snapshot.stalledNow, audit: s.writeAudit, dismiss: s.dismissEvidence })),
  );
  const cards = useMemo(() => selectEvidenceCards(evidence, dismissed, selectPoolSize(workload), lastT, running, stalledNow, audit), [evidence, dismissed, workload, lastT, running, stalledNow, audit]);
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
