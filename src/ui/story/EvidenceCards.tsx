/**
 * One card per fault: what it did, counted from the event stream; stays until dismissed. The
 * newest and the one that hurt most (most operations not served) are open, side by side; the others fold to one line each below
 * them (title, status, the worst fact) so a session of many faults does not push the charts below
 * the fold; a click opens one.
 */
import { useMemo, useState } from 'react';
import { evidenceCardsOf, type EvidenceCard } from '../store/serviceSelectors';
import { useDashboard } from '../store/StoreContext';
import { useStoryState } from './useStoryState';

/** cards shown whole: the newest, and the ones that hurt most among the others */
export const EXPANDED_CARDS = 2;
/** folded cards listed before "+N earlier faults" (a session of many faults keeps the charts in view) */
export const FOLDED_SHOWN = 3;

/**
 * The cards shown whole: the newest, and of the older ones the {@link EXPANDED_CARDS} − 1 that hurt
 * most (a failover that failed 7,000 operations stays open beside a later failback that hit 9);
 * the rest fold to one line until opened by a click.
 */
export function unfoldedIds(cards: readonly Pick<EvidenceCard, 'id' | 'impact'>[], opened: readonly number[]): Set<number> {
  const [newest, ...older] = cards;
  const worst = [...older].sort((a, b) => b.impact - a.impact).slice(0, EXPANDED_CARDS - 1);
  return new Set([...(newest ? [newest.id] : []), ...worst.map((c) => c.id), ...opened]);
}

export function EvidenceCards() {
  const [opened, setOpened] = useState<readonly number[]>([]);
  const [allFolded, setAllFolded] = useState(false);
  const st = useStoryState();
  const dismiss = useDashboard((s) => s.dismissEvidence);
  const cards = useMemo(() => evidenceCardsOf(st), [st]);
  const unfolded = useMemo(() => unfoldedIds(cards, opened), [cards, opened]);
  if (cards.length === 0) return null;
  const folded = cards.filter((c) => !unfolded.has(c.id));
  const hidden = allFolded ? new Set<number>() : new Set(folded.slice(FOLDED_SHOWN).map((c) => c.id));
  return (
    <section className="evidence" aria-label="Fault evidence">
      {/* the open cards first (newest first), so two share a row, then the folded ones: a folded row between them split them over two rows */}
      {[...cards.filter((c) => unfolded.has(c.id)), ...folded.filter((c) => !hidden.has(c.id))].map((c) => {
        const folded = !unfolded.has(c.id);
        const toggle = () => setOpened((o) => (o.includes(c.id) ? o.filter((x) => x !== c.id) : [...o, c.id]));
        return (
          <article key={c.id} className={`evidence-card ${c.severity}${folded ? ' folded' : ''}`} aria-label={`Evidence: ${c.title}`} data-evidence={c.id}>
            <header>
              <h3>{c.title}</h3>
              {folded ? (
                <span className="evidence-first">
                  {c.facts[0]}
                  {c.tookOver !== undefined ? <span className="evidence-took"> · took over from {c.tookOver}</span> : null}
                </span>
              ) : null}
              <span className="evidence-status">{c.status}</span>
              {(folded && c.facts.length > 1) || opened.includes(c.id) ? (
                <button type="button" className="btn small ghost" onClick={toggle} aria-expanded={!folded} title={folded ? `Show all ${c.facts.length} facts of this card` : 'Fold this card to one line'}>
                  {folded ? `+${c.facts.length - 1} fact${c.facts.length - 1 === 1 ? '' : 's'}` : 'fold'}
                </button>
              ) : null}
              <button type="button" className="btn small ghost" onClick={() => dismiss(c.id)} aria-label={`Dismiss evidence of ${c.title}`} title="Dismiss this card">
                ✕
              </button>
            </header>
            {folded || c.tookOverNote === undefined ? null : <p className="evidence-took">{c.tookOverNote}</p>}
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
      {hidden.size > 0 || (allFolded && folded.length > FOLDED_SHOWN) ? (
        <button type="button" className="btn small ghost evidence-more" onClick={() => setAllFolded((v) => !v)} aria-expanded={allFolded}>
          {allFolded ? `show only the newest ${FOLDED_SHOWN} folded cards` : `+${hidden.size} earlier fault${hidden.size === 1 ? '' : 's'} (folded)`}
        </button>
      ) : null}
    </section>
  );
}
