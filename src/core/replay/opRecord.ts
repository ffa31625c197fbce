/**
 * The compact per-operation record the timeline keeps for a whole run, and
 * its expansion into an {@link OpStory}. An operation's attempts, refresh
 * waits and backoffs live in one flat number array (STRIDE numbers per
 * segment) instead of one object each: a run of a million segments stays a
 * few tens of MB and costs the garbage collector little.
 */
import type { OpKind, WriteCondition } from '../domain/protocol';
import { isKvStatus, OUTCOME_CODE, OUTCOMES, type KvStatus, type OpErrorCode, type Outcome } from '../domain/status';
import type { EndReason } from '../telemetry/events';

/** numbers per segment: [kind, t0, t1, a, b, c, d] */
export const STRIDE = 7;
export const SEG = { attempt: 0, backoff: 1, wait: 2 } as const;
/** wait `b`: how the caller got (or did not get) a refresh */
export const WAIT_HOW = [null, 'started', 'coalesced', 'debounced'] as const;
export type WaitHow = Exclude<(typeof WAIT_HOW)[number], null>;
// Segment fields by kind (NaN t1 = still open; -1 = none):
//   attempt  a=attempt b=node c=epoch d=outcome code
//   backoff  a=attempt b=delayMs c=outcome code
//   wait     a=refresh id b=WAIT_HOW index c=cause code d=1 if abandoned

export const outcomeCode = (o: Outcome): number => OUTCOME_CODE[o];
/** the status or error an attempt.end / backoff / op.end carries */
export const eventOutcome = (e: { readonly status?: KvStatus; readonly error?: OpErrorCode }): Outcome => (e.status ?? e.error) as Outcome;
export const outcomeOf = (code: number): Outcome | null => (code < 0 ? null : (OUTCOMES[code] ?? null));

/** What the timeline keeps of one operation. */
export interface OpRecord {
  readonly op: number;
  readonly kind: OpKind;
  readonly key: string;
  readonly segment: number;
  /** virtual user (caller lane), null when the stream names none */
  readonly vu: number | null;
  readonly cond: WriteCondition | null;
  /** absolute deadline, ms since run start; null = none */
  readonly deadline: number | null;
  readonly budget: number | null;
  readonly startMs: number;
  endMs: number | null;
  outcome: Outcome | null;
  reason: EndReason | null;
  /** attempts the op.end reported */
  attempts: number;
  version: number | null;
  /** flat segments, STRIDE numbers each, in time order */
  readonly segs: number[];
  /** index (in segments) of the open attempt / refresh wait, -1 = none */
  openAttempt: number;
  openWait: number;
}

/** One attempt of an operation. */
export interface AttemptStep {
  readonly kind: 'attempt';
  readonly attempt: number;
  /** node it was routed to; null when the map named no owner */
  readonly node: number | null;
  /** epoch of the client's map used to route */
  readonly epoch: number;
  readonly startMs: number;
  /** null while in flight */
  readonly endMs: number | null;
  /** the status or error it came to (null while in flight) */
  readonly outcome: Outcome | null;
  readonly status?: KvStatus;
  readonly error?: OpErrorCode;
  /** ms, null while in flight */
  readonly latencyMs: number | null;
}

/** The sleep between two attempts. */
export interface BackoffStep {
  readonly kind: 'backoff';
  /** the attempt that just failed */
  readonly afterAttempt: number;
  readonly startMs: number;
  /** startMs + delayMs */
  readonly endMs: number;
  readonly delayMs: number;
  /** the status or error that caused it */
  readonly outcome: Outcome;
}

/** One wait for a cluster-map refresh before a retry. */
export interface RefreshWaitStep {
  readonly kind: 'refreshWait';
  /** when the operation asked for the refresh */
  readonly requestMs: number;
  readonly cause: Outcome;
  /** the refresh it started, rode, or was debounced as (null if unknown): the client's internal id */
  readonly refresh: number | null;
  /**
   * The executed refresh in the run's numbering (1, 2, … as on the refresh
   * lane): the one it started or rode; for a debounced request, the last
   * successful refresh before it (the reason it was debounced). Null if none.
   */
  readonly refreshNo: number | null;
  readonly how: WaitHow | null;
  readonly coalesced: boolean;
  /** when the operation went on (null: still waiting when the recording ended) */
  readonly resumedMs: number | null;
  /** stopped waiting after the wait budget; the refresh went on for the others */
  readonly abandoned: boolean;
  /** outcome of the refresh it waited for (null: debounced, or not finished) */
  readonly refreshOk: boolean | null;
}

export type OpStep = AttemptStep | BackoffStep | RefreshWaitStep;

/** The whole story of one operation, in time order. */
export interface OpStory {
  readonly op: number;
  readonly kind: OpKind;
  readonly key: string;
  readonly segment: number;
  readonly vu: number | null;
  readonly cond: WriteCondition | null;
  readonly deadline: number | null;
  readonly budget: number | null;
  readonly startMs: number;
  /** null: still in flight when the recording ended */
  readonly endMs: number | null;
  readonly latencyMs: number | null;
  readonly outcome: Outcome | null;
  readonly reason: EndReason | null;
  readonly version: number | null;
  readonly steps: readonly OpStep[];
  readonly attempts: readonly AttemptStep[];
  readonly backoffs: readonly BackoffStep[];
  readonly refreshWaits: readonly RefreshWaitStep[];
}

const nullIfNaN = (x: number): number | null => (Number.isNaN(x) ? null : x);
const nullIfNeg = (x: number): number | null => (x < 0 ? null : x);

/** what a story needs to know about the run's refreshes */
export interface RefreshLookup {
  /** how refresh `id` went (null: unknown or not finished) */
  ok(id: number): boolean | null;
  /** its number among executed refreshes */
  no(id: number): number | null;
  /** the number of the last successful refresh that ended at or before `t` */
  lastOkBefore(t: number): number | null;
}

/** one segment → one step */
export function stepAt(segs: readonly number[], i: number, refreshes: RefreshLookup): OpStep {
  const at = (k: number): number => segs[i + k] as number;
  const t0 = at(1);
  const t1 = nullIfNaN(at(2));
  switch (at(0)) {
    case SEG.attempt: {
      const outcome = outcomeOf(at(6));
      const statusOrError = outcome === null ? {} : isKvStatus(outcome) ? { status: outcome } : { error: outcome as OpErrorCode };
      return { kind: 'attempt', attempt: at(3), node: nullIfNeg(at(4)), epoch: at(5), startMs: t0, endMs: t1, outcome, ...statusOrError, latencyMs: t1 === null ? null : t1 - t0 };
    }
    case SEG.backoff:
      return { kind: 'backoff', afterAttempt: at(3), startMs: t0, endMs: t0 + at(4), delayMs: at(4), outcome: outcomeOf(at(5)) as Outcome };
    default: {
      const refresh = nullIfNeg(at(3));
      const how = WAIT_HOW[at(4)] ?? null;
      return {
        kind: 'refreshWait',
        requestMs: t0,
        cause: outcomeOf(at(5)) as Outcome,
        refresh,
        refreshNo: how === 'debounced' ? refreshes.lastOkBefore(t0) : refresh === null ? null : refreshes.no(refresh),
        how,
        coalesced: how === 'coalesced',
        resumedMs: t1,
        abandoned: at(6) === 1,
        refreshOk: refresh === null || how === 'debounced' ? null : refreshes.ok(refresh),
      };
    }
  }
}

/** expands a record into its story */
export function storyOf(r: OpRecord, refreshes: RefreshLookup): OpStory {
  const steps: OpStep[] = [];
  for (let i = 0; i < r.segs.length; i += STRIDE) steps.push(stepAt(r.segs, i, refreshes));
  return {
    op: r.op,
    kind: r.kind,
    key: r.key,
    segment: r.segment,
    vu: r.vu,
    cond: r.cond,
    deadline: r.deadline,
    budget: r.budget,
    startMs: r.startMs,
    endMs: r.endMs,
    latencyMs: r.endMs === null ? null : r.endMs - r.startMs,
    outcome: r.outcome,
    reason: r.reason,
    version: r.version,
    steps,
    attempts: steps.filter((s): s is AttemptStep => s.kind === 'attempt'),
    backoffs: steps.filter((s): s is BackoffStep => s.kind === 'backoff'),
    refreshWaits: steps.filter((s): s is RefreshWaitStep => s.kind === 'refreshWait'),
  };
}
