import { describe, expect, it } from 'vitest';
import { EXPANDED_CARDS, isFolded } from './EvidenceCards';

describe('evidence cards', () => {
  it(`shows the newest ${EXPANDED_CARDS} whole and folds older ones until opened (many faults must not push the charts below the fold)`, () => {
    const ids = [9, 8, 7, 6];
    expect(ids.map((id, i) => isFolded(i, id, []))).toEqual([false, false, true, true]);
    expect(ids.map((id, i) => isFolded(i, id, [7]))).toEqual([false, false, false, true]);
  });
});
