import { describe, expect, it } from 'vitest';
import { describeEvent, invariantLabel } from './logSelectors';

describe('event log lines', () => {
  it('a rejoin that reclaims nothing says so instead of "reclaimed … 0 segment(s)"', () => {
    expect(describeEvent({ t: 9000, type: 'topology', epoch: 7, change: 'reclaimed', node: 1, segments: [] })).toBe(
      'node 1 rejoined after being declared dead (nothing to reclaim: no segment it last owned was left without an owner), epoch 7',
    );
    expect(describeEvent({ t: 9000, type: 'topology', epoch: 7, change: 'reclaimed', node: 1, segments: [3, 4] })).toBe('reclaimed node 1, epoch 7, 2 segment(s)');
    expect(describeEvent({ t: 5000, type: 'topology', epoch: 3, change: 'promoted', node: 2, segments: [1] })).toBe('promoted node 2, epoch 3, 1 segment(s)');
  });
});

describe('invariant labels', () => {
  it('names an invariant in the panels\' words, and leaves an unknown name (a newer file) as it is', () => {
    expect(invariantLabel('attemptBudgetKept')).toBe('Attempt budget kept');
    expect(invariantLabel('somethingNew')).toBe('somethingNew');
    expect(invariantLabel('toString')).toBe('toString');
  });
});
