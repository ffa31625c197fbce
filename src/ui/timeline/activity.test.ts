import { describe, expect, it } from 'vitest';
import { OUTCOME_CODE } from '../../core/domain/status';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { retriedOp } from '../store/testEvents';
import { ActivityHistogram, MAX_BUCKETS } from './activity';

describe('activity histogram (the overview strip)', () => {
  it('counts attempts by how they were answered, from batches and from events alike', () => {
    const h = new ActivityHistogram(100);
    const b = new EventBatchBuilder();
    for (const e of retriedOp()) b.push(e);
    h.ingestBatch(b.take());
    const e = new ActivityHistogram(100);
    for (const ev of retriedOp()) e.ingestEvent(ev);
    // bucket 0: two Moved (retryable); bucket 2: Ok; bucket 9: Ok
    expect([h.at(0, 0), h.at(0, 1), h.at(0, 2)]).toEqual([0, 2, 0]);
    expect(h.at(2, 0)).toBe(1);
    expect(h.at(9, 0)).toBe(1);
    expect(h.length).toBe(10);
    for (let i = 0; i < 10; i++) for (let k = 0; k < 3; k++) expect(e.at(i, k)).toBe(h.at(i, k));
  });

  it('sums pixel columns and reports the tallest', () => {
    const h = new ActivityHistogram(100);
    h.add(50, OUTCOME_CODE.Ok);
    h.add(150, OUTCOME_CODE.NodeUnavailable);
    h.add(160, OUTCOME_CODE.Socket);
    const { values, max } = h.columns(0, 200, 2);
    expect([...values]).toEqual([1, 0, 0, 0, 0, 2]);
    expect(max).toBe(2);
  });

  it('stays bounded: a long run doubles the bucket width instead of growing', () => {
    const h = new ActivityHistogram(10);
    h.add(5, OUTCOME_CODE.Ok);
    h.add(MAX_BUCKETS * 10 + 5, OUTCOME_CODE.Ok);
    expect(h.bucketMs).toBe(20);
    expect(h.length).toBeLessThanOrEqual(MAX_BUCKETS);
    const { values } = h.columns(0, h.bucketMs * h.length, h.length);
    expect(values.reduce((s, v) => s + v, 0)).toBe(2);
  });
});
