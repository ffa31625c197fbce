/**
 * One card per fault: what it did, counted from the event stream; stays until dismissed. The
 * newest {@link EXPANDED_CARDS} are open; older ones fold to one line (title, status, the worst
 * fact) so a session of many faults does not push the charts below the fold; a click opens one.
 */
import { useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { selectEvidenceCards, selectHeadline, selectPoolSize } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';

/** cards shown whole (newest first); older ones fold to one line until opened */
export const EXPANDED_CARDS = 2;

/** whether card `i` (newest first) is folded to one line: older than the newest {@link EXPANDED_CARDS}, and not opened by a click */
export function isFolded(i: number, id: number, opened: readonly number[]): boolean {
  return i >= EXPANDED_CARDS && !opened.includes(id);
}

export function EvidenceCards() {
  const [opened, setOpened] = useState<readonly number[]>([]);
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
      {cards.map((c, i) => {
        const folded = isFolded(i, c.id, opened);
        const toggle = () => setOpened((o) => (o.includes(c.id) ? o.filter((x) => x !== c.id) : [...o, c.id]));
        return (
          <article key={c.id} className={`evidence-card ${c.severity}${folded ? ' folded' : ''}`} aria-label={`Evidence: ${c.title}`} data-evidence={c.id}>
            <header>
              <h3>{c.title}</h3>
              {folded ? <span className="evidence-first">{c.facts[0]}</span> : null}
              <span className="evidence-status">{c.status}</span>
              {i >= EXPANDED_CARDS ? (
                <button type="button" className="btn small ghost" onClick={toggle} aria-expanded={!folded} title={folded ? `Show all ${c.facts.length} facts of this card` : 'Fold this card to one line'}>
                  {folded ? `+${c.facts.length - 1} more` : 'fold'}
                </button>
              ) : null}
              <button type="button" className="btn small ghost" onClick={() => dismiss(c.id)} aria-label={`Dismiss evidence of ${c.title}`} title="Dismiss this card">
                ✕
              </button>
            </header>
            {folded ? null : (
              <ul>
                {c.facts.map((f) => (
                  <li key={f}>{f}</li>
                ))}
              </ul>
            )}
          </article>
        );
      })}
    </section>
  );
}
