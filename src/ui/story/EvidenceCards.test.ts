import { describe, expect, it } from 'vitest';
import { EXPANDED_CARDS, unfoldedIds } from './EvidenceCards';

describe('evidence cards', () => {
  it(`shows ${EXPANDED_CARDS} whole, the newest and the one that hurt most, and folds the rest until opened`, () => {
    // newest first: a failback that hit 9 ops, a scale-out, the failover that failed 7,000
    const cards = [
      { id: 3, impact: 9 },
      { id: 2, impact: 447 },
      { id: 1, impact: 7_002_000 },
    ];
    expect([...unfoldedIds(cards, [])].sort()).toEqual([1, 3]);
    expect([...unfoldedIds(cards, [2])].sort()).toEqual([1, 2, 3]);
    expect([...unfoldedIds([{ id: 5, impact: 0 }], [])]).toEqual([5]);
    expect([...unfoldedIds([], [])]).toEqual([]);
  });
});
