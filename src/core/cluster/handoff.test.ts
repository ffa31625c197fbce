/** The handoff rule (`handoff.ts`): fence, caught-up reports, abandonment, timeout. */
import { describe, expect, it } from 'vitest';
import { Handoffs } from './handoff';

const moves = [
  { segment: 1, from: 2 },
  { segment: 4, from: 0 },
];

describe('Handoffs', () => {
  it('fences every old owner and completes when every new copy caught up', () => {
    const h = new Handoffs();
    const { id, fences } = h.start(1, moves, { kind: 'handBack' });
    expect(fences).toEqual([
      { handoff: id, from: 2, to: 1, segment: 1 },
      { handoff: id, from: 0, to: 1, segment: 4 },
    ]);
    expect(h.caughtUp(id, 1)).toBeNull();
    expect(h.caughtUp(id, 1)).toBeNull(); // a repeated report counts once
    expect(h.caughtUp(id, 4)).toEqual({ id, to: 1, moves, caughtUp: [1, 4], purpose: { kind: 'handBack' } });
    expect(h.timedOut(id)).toBeNull(); // completed already
  });

  it('an old owner that goes silent abandons its move; the handoff completes with the rest', () => {
    const h = new Handoffs();
    const { id } = h.start(1, moves, { kind: 'handBack' });
    h.caughtUp(id, 1);
    expect(h.silenced(0)).toEqual([{ id, to: 1, moves, caughtUp: [1], purpose: { kind: 'handBack' } }]);
    expect(h.caughtUp(id, 4)).toBeNull();
  });

  it('a new owner that goes silent abandons the whole handoff', () => {
    const h = new Handoffs();
    const { id } = h.start(1, moves, { kind: 'migrate' });
    expect(h.silenced(1)).toEqual([{ id, to: 1, moves, caughtUp: [], purpose: { kind: 'migrate' } }]);
  });

  it('the timeout completes it with what caught up; a node not involved changes nothing', () => {
    const h = new Handoffs();
    const { id } = h.start(1, moves, { kind: 'handBack' });
    expect(h.silenced(5)).toEqual([]);
    h.caughtUp(id, 4);
    expect(h.timedOut(id)?.caughtUp).toEqual([4]);
  });
});
