import { describe, expect, it } from 'vitest';
import { END_REASONS } from '../telemetry/events';
import { SERVICE_CLASS_OF_END, serviceTally } from './service';

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
