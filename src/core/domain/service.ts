/**
 * What a user of the store got: every operation the application asked for
 * was either *served* (an answer: Ok, or a real NotFound / Conflict) or
 * *not served* — it failed (the client gave up or hit a non-retryable
 * error), it timed out (its deadline or the refresh wait budget ran out), or
 * it never started because the application's request pool was full
 * (rejected arrival). The one definition the Compare table, its verdict and
 * the review report use; a run judged by failures alone hides rejections.
 */
import type { EndReason } from '../telemetry/events';

/** what one ended operation was to its user */
export type ServiceClass = 'served' | 'failed' | 'timedOut';

export const SERVICE_CLASS_OF_END: Readonly<Record<EndReason, ServiceClass>> = {
  success: 'served',
  // NotFound / Conflict are answers: the user learned the truth
  realAnswer: 'served',
  attemptsExhausted: 'failed',
  nonRetryable: 'failed',
  deadline: 'timedOut',
  waitBudget: 'timedOut',
};

/** a run's operations by what their users got */
export interface ServiceTally {
  /** ended with an answer */
  readonly served: number;
  /** failed + timedOut + rejected */
  readonly notServed: number;
  readonly failed: number;
  readonly timedOut: number;
  /** arrivals refused before they started (open loop, pool full) */
  readonly rejected: number;
  /** started but not ended when the run stopped: neither served nor refused yet */
  readonly unfinished: number;
  /** served + notServed + unfinished: every operation the application asked for */
  readonly asked: number;
}

/**
 * Tallies service from end-reason counts (unknown reasons count as failed:
 * an answer is only what the client reported as one), refused arrivals and
 * operations still in flight.
 */
export function serviceTally(endReasons: Readonly<Record<string, number>>, rejected: number, unfinished: number): ServiceTally {
  let served = 0;
  let failed = 0;
  let timedOut = 0;
  for (const [reason, n] of Object.entries(endReasons)) {
    const cls = (SERVICE_CLASS_OF_END as Readonly<Record<string, ServiceClass>>)[reason] ?? 'failed';
    if (cls === 'served') served += n;
    else if (cls === 'timedOut') timedOut += n;
    else failed += n;
  }
  const notServed = failed + timedOut + rejected;
  return { served, notServed, failed, timedOut, rejected, unfinished, asked: served + notServed + unfinished };
}
