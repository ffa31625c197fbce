import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OUTCOMES } from './status';
import { HEALTHY_SHARE, isServed, isStalled, judgeService, NOT_SERVING_SHARE, servedShare, STALL_THRESHOLD_MS } from './service';
import { END_REASONS } from '../telemetry/events';
import { SERVICE_CLASS_OF_END, serviceTally } from './service';

describe('service classifiers', () => {
  it('counts real answers as served, everything else as not', () => {
    expect(OUTCOMES.filter(isServed)).toEqual(['Ok', 'NotFound', 'Conflict']);
  });

  it('calls an operation stalled only past the threshold', () => {
    expect(isStalled(STALL_THRESHOLD_MS)).toBe(false);
    expect(isStalled(STALL_THRESHOLD_MS + 0.1)).toBe(true);
  });

  it('judges the share of demand served: failed, rejected and stalled all count against the client', () => {
    expect(judgeService({ served: 0, failed: 0, rejected: 0, stalled: 0 })).toEqual({ verdict: 'idle', share: null });
    expect(judgeService({ served: 5000, failed: 0, rejected: 0, stalled: 0 }).verdict).toBe('healthy');
    // the fixed client's failover: fast failures on the dead node's segments, the rest served
    const fixed = judgeService({ served: 3400, failed: 1700, rejected: 0, stalled: 40 });
    expect(fixed.verdict).toBe('degraded');
    // the storm fails nothing, but stalls the pool and turns arrivals away
    const storm = judgeService({ served: 700, failed: 0, rejected: 4500, stalled: 1800 });
    expect(storm.verdict).toBe('notServing');
    expect(storm.share as number).toBeLessThan(fixed.share as number);
    expect(HEALTHY_SHARE).toBeGreaterThan(NOT_SERVING_SHARE);
  });

  it('a stall or a rejection never looks healthier than a fast failure of the same operations', () => {
    fc.assert(
      fc.property(fc.nat(10_000), fc.nat(10_000), fc.nat(10_000), (served, bad, other) => {
        const failedFast = servedShare({ served, failed: bad + other, rejected: 0, stalled: 0 });
        const stalled = servedShare({ served, failed: other, rejected: 0, stalled: bad });
        const rejected = servedShare({ served, failed: other, rejected: bad, stalled: 0 });
        expect(stalled).toEqual(failedFast);
        expect(rejected).toEqual(failedFast);
      }),
    );
  });
});

describe('service: served vs not served', () => {
  it('classifies every end reason', () => {
    for (const r of END_REASONS) expect(['served', 'failed', 'timedOut']).toContain(SERVICE_CLASS_OF_END[r]);
    expect(SERVICE_CLASS_OF_END.realAnswer).toBe('served');
    expect(SERVICE_CLASS_OF_END.deadline).toBe('timedOut');
    expect(SERVICE_CLASS_OF_END.attemptsExhausted).toBe('failed');
  });

  it('not served = failed + timed out + rejected arrivals; in flight at the end is neither', () => {
    const t = serviceTally({ success: 70, realAnswer: 5, attemptsExhausted: 6, nonRetryable: 1, deadline: 3, waitBudget: 2 }, 40, 9);
    expect(t).toEqual({ served: 75, failed: 7, timedOut: 5, rejected: 40, notServed: 52, unfinished: 9, asked: 136 });
  });

  it('an unknown end reason is not an answer', () => {
    expect(serviceTally({ somethingNew: 4 }, 0, 0)).toMatchObject({ served: 0, failed: 4 });
  });
});
