import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { InvariantChecker } from '../../core/sim/invariants';
import { describeEvent, inReplayWords, invariantLabel, RECORDING_FINAL_DATA, selectInvariantRows } from './logSelectors';

describe('event log lines', () => {
  it('a rejoin that reclaims nothing says so instead of "reclaimed … 0 segment(s)"', () => {
    expect(describeEvent({ t: 9000, type: 'topology', epoch: 7, change: 'reclaimed', node: 1, segments: [] })).toBe(
      'node 1 rejoined after being declared dead (nothing to reclaim: no segment it last owned was left without an owner), epoch 7',
    );
    expect(describeEvent({ t: 9000, type: 'topology', epoch: 7, change: 'reclaimed', node: 1, segments: [3, 4] })).toBe('reclaimed node 1, epoch 7, 2 segment(s)');
    expect(describeEvent({ t: 5000, type: 'topology', epoch: 3, change: 'promoted', node: 2, segments: [1] })).toBe('promoted node 2, epoch 3, 1 segment(s)');
  });

  it('on the real engine an operation\'s segment is its hash slot, and says so', () => {
    const start = { t: 1, type: 'op.start', op: 7, kind: 'get', key: 'k1', segment: 522, budget: 3 } as const;
    expect(describeEvent(start)).toBe('get k1 seg 522 budget 3');
    expect(describeEvent(start, 'hash slot')).toBe('get k1 slot 522 budget 3');
  });
});

describe('invariant labels', () => {
  it('names an invariant in the panels\' words, and leaves an unknown name (a newer file) as it is', () => {
    expect(invariantLabel('attemptBudgetKept')).toBe('Attempt budget kept');
    expect(invariantLabel('somethingNew')).toBe('somethingNew');
    expect(invariantLabel('toString')).toBe('toString');
  });
});

describe('invariant rows in a replay', () => {
  it("says a recording has no data to check where a live session says it checks the data on Pause, and leaves every other row as it is", () => {
    const checker = new InvariantChecker(() => DEFAULT_CLIENT_CONFIG);
    const { rows } = selectInvariantRows(checker.report());
    const lost = rows.find((r) => r.name === 'noLostAckedWrites');
    expect(lost?.detail).toContain('the final data is checked on Pause');
    const replay = inReplayWords(rows);
    expect(replay.find((r) => r.name === 'noLostAckedWrites')?.detail).toBe(`every read saw every write acknowledged before it started (${RECORDING_FINAL_DATA})`);
    expect(replay.filter((r) => r.name !== 'noLostAckedWrites')).toEqual(rows.filter((r) => r.name !== 'noLostAckedWrites'));
    // once the data was checked (a live Pause), there is nothing to restate
    checker.checkFinalData(() => 0);
    const checked = selectInvariantRows(checker.report()).rows;
    expect(inReplayWords(checked)).toEqual(checked);
  });
});
