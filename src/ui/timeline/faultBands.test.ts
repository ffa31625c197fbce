import { describe, expect, it } from 'vitest';
import type { ClusterEvent } from '../../core/telemetry/events';
import { epochChanges, faultBands } from './faultBands';

const seg = [1, 4, 7];
const events: ClusterEvent[] = [
  { t: 0, type: 'topology', epoch: 1, change: 'initial', node: 0, segments: [0, 1] },
  { t: 5000, type: 'fault', action: 'failover', node: 1, segments: seg },
  { t: 9000, type: 'topology', epoch: 24, change: 'nodeDown', node: 1, segments: seg },
  { t: 9000, type: 'topology', epoch: 24, change: 'promoted', node: 1, segments: seg },
  { t: 10_000, type: 'fault', action: 'scaleOut', node: 3, segments: [2] },
  { t: 10_000, type: 'topology', epoch: 25, change: 'nodeJoined', node: 3, segments: [] },
  { t: 10_500, type: 'topology', epoch: 26, change: 'migrationEnd', node: 3, segments: [2] },
  { t: 12_000, type: 'fault', action: 'hang', node: 2, segments: [5] },
];

describe('fault bands', () => {
  it('run from each fault to the last topology change on its node', () => {
    expect(faultBands(events)).toEqual([
      { action: 'failover', node: 1, t0: 5000, t1: 9000, segments: 3, settledBy: 'promoted', epoch: 24 },
      { action: 'scaleOut', node: 3, t0: 10_000, t1: 10_500, segments: 1, settledBy: 'migrationEnd', epoch: 26 },
      { action: 'hang', node: 2, t0: 12_000, t1: 12_000, segments: 1, settledBy: null, epoch: null },
    ]);
  });

  it('a later fault on the same node starts its own band', () => {
    const more: ClusterEvent[] = [...events, { t: 13_000, type: 'fault', action: 'failback', node: 1, segments: seg }, { t: 14_000, type: 'topology', epoch: 30, change: 'handoffEnd', node: 1, segments: seg }];
    const bands = faultBands(more);
    expect(bands[0]?.t1).toBe(9000);
    expect(bands[3]).toMatchObject({ action: 'failback', t0: 13_000, t1: 14_000, settledBy: 'handoffEnd' });
  });

  it('lists each epoch change once', () => {
    expect(epochChanges(events)).toEqual([
      { t: 0, epoch: 1 },
      { t: 9000, epoch: 24 },
      { t: 10_000, epoch: 25 },
      { t: 10_500, epoch: 26 },
    ]);
  });
});
