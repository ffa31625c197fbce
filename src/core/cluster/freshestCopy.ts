/**
 * The "freshest copy" rule, for both shells: when a segment has no active
 * owner, the copy that speaks for it (the final-state check, a report) is
 * the one with the highest sum of versions — versions only grow, so the
 * copy that saw the most writes wins. Ties go to the first copy offered.
 */
import type { Entry } from './segmentStore';

export function freshestCopy<C extends ReadonlyMap<string, Entry>>(copies: Iterable<C>): C | null {
  let best: C | null = null;
  let bestSum = -1;
  for (const c of copies) {
    let sum = 0;
    for (const e of c.values()) sum += e.version;
    if (sum > bestSum) {
      bestSum = sum;
      best = c;
    }
  }
  return best;
}
