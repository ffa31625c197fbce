import type { Outcome } from '../domain/status';
import { KvStatus } from '../domain/status';
import type { OpEndEvent, OpEventSink, OpStartEvent, ZarisEvent } from '../telemetry/events';
import { grownArray, grownI32, grownI8 } from '../grownColumns';
import { OpSlots } from '../telemetry/opSlots';

/**
 * The ambiguous-write audit: ground truth from the cluster's side (how many
 * times each operation's write was applied) held against what the client
 * told its caller. Retries are at-least-once (SPEC §5): a write whose
 * acknowledgement is lost may have landed although the caller hears of a
 * failure, may land twice, or may make its own retry fail its condition.
 * The client cannot know; this audit names every such write by op id.
 *
 * Memory stays bounded: entries live while the operation is in flight, plus
 * a window of recently ended writes (a request the client gave up on can
 * still be served by a queued node after the operation ended).
 */

/** the three ways the caller's answer and the cluster's truth part */
export const AMBIGUOUS_CASES = ['appliedReportedFailed', 'appliedTwice', 'ownConflict'] as const;
export type AmbiguousCase = (typeof AMBIGUOUS_CASES)[number];

/** the write's condition, as the audit groups them */
export type WriteGuard = 'none' | 'ifMatchVersion' | 'ifAbsent';

/** what the CAS workload made of a `Conflict` its own earlier attempt caused */
export type CasResolution = 'ownWriteFound' | 'incrementedAgain';

export interface AmbiguousWrite {
  readonly op: number;
  readonly case: AmbiguousCase;
  readonly kind: 'put' | 'delete';
  readonly key: string;
  readonly guard: WriteGuard;
  /** times the cluster applied it */
  readonly applies: number;
  /** the final answer the caller got (status or error) */
  readonly outcome: Outcome;
  readonly attempts: number;
  /** ms, when the operation ended */
  readonly t: number;
  /** CAS loops only: whether the workload noticed its own write (else it incremented again) */
  readonly cas?: CasResolution;
}

export interface WriteAuditReport {
  /** operations whose write was applied more than once */
  readonly duplicateOps: number;
  /** extra applies in total */
  readonly duplicateApplies: number;
  /** the first duplicated op ids */
  readonly examples: readonly number[];
  readonly ambiguous: {
    /** writes that ended so far (each one checked against its applies) */
    readonly audited: number;
    /** writes whose outcome the client could not know (each counted once, under its first matching case) */
    readonly total: number;
    readonly byCase: Readonly<Record<AmbiguousCase, number>>;
    /** the same writes by condition: how many a condition turned into a safe answer */
    readonly byGuard: Readonly<Record<WriteGuard, number>>;
    /** CAS loops whose own write made their retry answer Conflict: noticed on re-read (done) / incremented again */
    readonly casOwnWriteFound: number;
    readonly casIncrementedAgain: number;
    /** applies of writes that had ended so long ago that they were out of the audit's window */
    readonly lateAppliesUnmatched: number;
    /** the first ambiguous writes, by the time they were known */
    readonly list: readonly AmbiguousWrite[];
  };
  /**
   * The dashboard's view only (not in the run summary): how many ambiguous writes were known
   * before each marked time — every fault's — so a fault card counts the writes of its span
   * exactly although the list stops at {@link MAX_LISTED}.
   */
  readonly knownBefore?: readonly KnownBefore[];
}

/** the ambiguous writes whose operation ended before `t` (`exact`: false when the count is a lower bound) */
export interface KnownBefore {
  readonly t: number;
  readonly count: number;
  /** the same by case */
  readonly byCase: Readonly<Record<AmbiguousCase, number>>;
  readonly exact: boolean;
}

/** at most this many ambiguous writes are listed (all are counted) */
export const MAX_LISTED = 50;
/** the op-end times of the latest ambiguous writes kept, for a mark set a little after its time (the live client hears of a fault late) */
const RECENT_KNOWN = 1024;
/** recently ended writes kept for late applies */
const ENDED_WINDOW = 4096;
const MAX_EXAMPLES = 20;

/**
 * Which case a write is, from its applies and the caller's final answer
 * (null: the caller's answer was the truth). A `Conflict` after an apply
 * can only come from the operation's own earlier attempt: an attempt that
 * applies answers `Ok` (or loses its acknowledgement).
 */
export function classifyWrite(applies: number, outcome: Outcome): AmbiguousCase | null {
  if (applies === 0) return null;
  if (outcome === KvStatus.Conflict) return 'ownConflict';
  if (applies > 1) return 'appliedTwice';
  if (outcome !== KvStatus.Ok) return 'appliedReportedFailed';
  return null;
}

export function guardOf(start: Pick<OpStartEvent, 'cond'>): WriteGuard {
  const c = start.cond;
  if (c?.ifMatchVersion !== undefined) return 'ifMatchVersion';
  if (c?.ifAbsent === true) return 'ifAbsent';
  return 'none';
}

/**
 * How the write's condition turns the case into a safe answer (the seed's
 * lesson: retries stay on; conditions make the hidden retries safe).
 */
export function safeAnswerOf(w: Pick<AmbiguousWrite, 'case' | 'guard' | 'cas'>): string {
  if (w.case === 'ownConflict') {
    if (w.guard === 'ifAbsent') return 'ifAbsent: the retry answered Conflict because the first attempt created the key — "already done", safe';
    if (w.cas === 'incrementedAgain') return 'ifMatchVersion stopped the retry, but the re-read no longer showed its own tag (a plain put or more writers came between), so the CAS loop applied its increment again';
    return 'ifMatchVersion: the retry answered Conflict against the version its own first attempt wrote — re-read; finding your own value means done';
  }
  if (w.case === 'appliedTwice') {
    if (w.guard === 'none') return 'unconditional: applied twice (harmless for a fixed-value put; guard anything else with ifMatchVersion so the repeat answers Conflict)';
    return 'the condition held twice (the key changed back in between): re-read before acting on it';
  }
  if (w.guard === 'none') return 'landed although the caller was told it failed; a caller that repeats it should guard it with ifMatchVersion / ifAbsent so the repeat answers Conflict';
  return 'landed although the caller was told it failed; repeating it with the same condition answers Conflict (safe), a re-read shows it landed';
}

/**
 * Recently ended writes, for applies that arrive after the operation ended:
 * a ring indexed by op id (ids are handed out in sequence, so a slot is
 * reused by a write about `ENDED_WINDOW` ids later). Typed arrays, so an
 * ended write costs no allocation on the hot path.
 */
class EndedWrites {
  readonly ids = new Float64Array(ENDED_WINDOW).fill(NaN);
  readonly applies = new Int32Array(ENDED_WINDOW);
  readonly attempts = new Int32Array(ENDED_WINDOW);
  readonly t = new Float64Array(ENDED_WINDOW);
  /** index in the audit's list, -1 when not listed */
  readonly listed = new Int32Array(ENDED_WINDOW);
  /** index in AMBIGUOUS_CASES, -1 while unambiguous */
  readonly caseIx = new Int8Array(ENDED_WINDOW);
  readonly outcome: (Outcome | undefined)[] = new Array<Outcome | undefined>(ENDED_WINDOW).fill(undefined);
  /** kind and guard ({@link writeCode}) */
  readonly code = new Int8Array(ENDED_WINDOW);
  /** the key (the workload's key strings: no copy) */
  readonly key: string[] = new Array<string>(ENDED_WINDOW).fill('');

  /** the slot of `op`, or -1 when it is not (or no longer) held */
  slot(op: number): number {
    const i = op & (ENDED_WINDOW - 1);
    return this.ids[i] === op ? i : -1;
  }

  put(op: number, code: number, key: string, applies: number, outcome: Outcome, attempts: number, t: number): number {
    const i = op & (ENDED_WINDOW - 1);
    this.ids[i] = op;
    this.code[i] = code;
    this.key[i] = key;
    this.applies[i] = applies;
    this.outcome[i] = outcome;
    this.attempts[i] = attempts;
    this.t[i] = t;
    this.listed[i] = -1;
    this.caseIx[i] = -1;
    return i;
  }
}

const GUARDS: readonly WriteGuard[] = ['none', 'ifMatchVersion', 'ifAbsent'];

/**
 * A write's kind and guard as one small number: events are not kept (an
 * event held until its operation ends outlives the young generation and
 * costs the garbage collector far more than these numbers).
 */
function writeCode(start: Pick<OpStartEvent, 'kind' | 'cond'>): number {
  return (start.kind === 'delete' ? 4 : 0) | GUARDS.indexOf(guardOf(start));
}

/** writes in flight, columns by {@link OpSlots} slot: each one's {@link writeCode} and key, and the applies so far */
class InFlightWrites {
  code = new Int8Array(0);
  key: string[] = [];
  applies = new Int32Array(0);

  grow(n: number): void {
    this.code = grownI8(this.code, n);
    this.key = grownArray(this.key, n, '');
    this.applies = grownI32(this.applies, n);
  }
}

export class ApplyTracker implements OpEventSink {
  /** reads events during the call only (OpEventSink.transient) */
  readonly transient = true;
  private readonly writes = new InFlightWrites();
  private readonly inFlight = new OpSlots((n) => this.writes.grow(n));
  private readonly ended = new EndedWrites();

  duplicateOps = 0;
  duplicateApplies = 0;
  readonly examples: number[] = [];
  private readonly byCase: Record<AmbiguousCase, number> = { appliedReportedFailed: 0, appliedTwice: 0, ownConflict: 0 };
  private readonly byGuard: Record<WriteGuard, number> = { none: 0, ifMatchVersion: 0, ifAbsent: 0 };
  private casOwnWriteFound = 0;
  private casIncrementedAgain = 0;
  private lateAppliesUnmatched = 0;
  private audited = 0;
  private readonly list: AmbiguousWrite[] = [];
  /** ring of the op-end times of the latest writes found ambiguous, in the order found, and their cases */
  private readonly recentT = new Float64Array(RECENT_KNOWN);
  private readonly recentCase = new Int8Array(RECENT_KNOWN);
  private found = 0;
  /** the latest op-end time that fell out of the ring */
  private evictedMaxT = -Infinity;
  private readonly marks: { t: number; count: number; byCase: Record<AmbiguousCase, number>; exact: boolean }[] = [];

  constructor() {
    this.writes.grow(this.inFlight.capacity);
  }

  /** called by the data path for every applied write */
  onApply(op: number): void {
    const w = this.inFlight.slotOf(op);
    if (w >= 0) {
      this.writes.applies[w] = (this.writes.applies[w] as number) + 1;
      return;
    }
    // the operation had ended: a request it gave up on was served late
    const i = this.ended.slot(op);
    if (i < 0) {
      this.lateAppliesUnmatched++;
      return;
    }
    const applies = (this.ended.applies[i] as number) + 1;
    this.ended.applies[i] = applies;
    if (applies === 2) this.countDuplicate(op, 1);
    else if (applies > 2) this.duplicateApplies++;
    this.classify(op, i);
  }

  emit(e: ZarisEvent): void {
    if (e.type === 'op.start') this.opStart(e);
    else if (e.type === 'op.end') this.opEnd(e);
    else if (e.type === 'fault') this.mark(e.t);
  }

  /**
   * Notes how many ambiguous writes are known before `t` (a fault's time; a stream's fault
   * events call this). May come a little after `t`, as in the live client worker: the writes
   * found since whose operation ended at or after `t` are not counted, and are known exactly
   * while they are still in the ring of the latest ones. Writes found later that ended before
   * `t` (a late apply) are added as they are found.
   */
  mark(t: number): void {
    const byCase = { ...this.byCase };
    const n = Math.min(this.found, RECENT_KNOWN);
    for (let k = 0; k < n; k++) if ((this.recentT[k] as number) >= t) byCase[AMBIGUOUS_CASES[this.recentCase[k] as number] as AmbiguousCase]--;
    this.marks.push({ t, count: byCase.appliedReportedFailed + byCase.appliedTwice + byCase.ownConflict, byCase, exact: this.evictedMaxT < t });
  }

  /** {@link report} and the marks: what the dashboard shows */
  view(): WriteAuditReport {
    return { ...this.report(), knownBefore: this.marks.map((m) => ({ ...m, byCase: { ...m.byCase } })) };
  }

  /** marks set so far (a view is stale when this changed) */
  get markCount(): number {
    return this.marks.length;
  }

  private totalAmbiguous(): number {
    return this.byCase.appliedReportedFailed + this.byCase.appliedTwice + this.byCase.ownConflict;
  }

  opStart(e: OpStartEvent): void {
    if (e.kind === 'get') return;
    // a repeated op.start (a stream that has one) replaces kind and key, the applies so far stay
    const held = this.inFlight.slotOf(e.op) >= 0;
    const w = this.inFlight.add(e.op);
    this.writes.code[w] = writeCode(e);
    this.writes.key[w] = e.key;
    if (!held) this.writes.applies[w] = 0;
  }

  /** attempts are not audited (the applies come from the data path) */
  attemptStart(): void {}
  attemptEnd(): void {}

  opEnd(e: OpEndEvent): void {
    const w = this.inFlight.slotOf(e.op);
    if (w < 0) return;
    const code = this.writes.code[w] as number;
    const key = this.writes.key[w] as string;
    const n = this.writes.applies[w] as number;
    this.writes.key[w] = '';
    this.inFlight.delete(e.op);
    this.audited++;
    if (n > 1) this.countDuplicate(e.op, n - 1);
    const i = this.ended.put(e.op, code, key, n, (e.status ?? e.error) as Outcome, e.attempts, e.t);
    if (n > 0) this.classify(e.op, i);
  }

  /**
   * The CAS workload reports what it made of a `Conflict` (called right
   * after the operation ended): `ownWriteFound` when the re-read showed its
   * own value. Only a Conflict the audit knows to be self-inflicted counts.
   */
  onCasConflict(op: number, ownWriteFound: boolean): void {
    const i = this.ended.slot(op);
    if (i < 0 || AMBIGUOUS_CASES[this.ended.caseIx[i] as number] !== 'ownConflict') return;
    if (ownWriteFound) this.casOwnWriteFound++;
    else this.casIncrementedAgain++;
    const at = this.ended.listed[i] as number;
    if (at >= 0) this.list[at] = { ...(this.list[at] as AmbiguousWrite), cas: ownWriteFound ? 'ownWriteFound' : 'incrementedAgain' };
  }

  report(): WriteAuditReport {
    return {
      duplicateOps: this.duplicateOps,
      duplicateApplies: this.duplicateApplies,
      examples: [...this.examples],
      ambiguous: {
        audited: this.audited,
        total: this.totalAmbiguous(),
        byCase: { ...this.byCase },
        byGuard: { ...this.byGuard },
        casOwnWriteFound: this.casOwnWriteFound,
        casIncrementedAgain: this.casIncrementedAgain,
        lateAppliesUnmatched: this.lateAppliesUnmatched,
        list: [...this.list],
      },
    };
  }

  /** a write ended at `t` was just found ambiguous (case `c`): the ring of the latest, and every mark after `t` */
  private noteFound(t: number, c: AmbiguousCase): void {
    const k = this.found % RECENT_KNOWN;
    if (this.found >= RECENT_KNOWN) this.evictedMaxT = Math.max(this.evictedMaxT, this.recentT[k] as number);
    this.recentT[k] = t;
    this.recentCase[k] = AMBIGUOUS_CASES.indexOf(c);
    this.found++;
    for (const m of this.marks) {
      if (m.t <= t) continue;
      m.count++;
      m.byCase[c]++;
    }
  }

  private countDuplicate(op: number, extra: number): void {
    this.duplicateOps++;
    this.duplicateApplies += extra;
    if (this.examples.length < MAX_EXAMPLES) this.examples.push(op);
  }

  /** counts and lists an ended write the first time it is ambiguous (a late apply may make it so) */
  private classify(op: number, i: number): void {
    const w = this.ended;
    const applies = w.applies[i] as number;
    const at = w.listed[i] as number;
    if ((w.caseIx[i] as number) >= 0) {
      // counted already (under its first case); a late apply updates the listing
      if (at >= 0) this.list[at] = { ...(this.list[at] as AmbiguousWrite), applies };
      return;
    }
    const outcome = w.outcome[i] as Outcome;
    const c = classifyWrite(applies, outcome);
    if (c === null) return;
    w.caseIx[i] = AMBIGUOUS_CASES.indexOf(c);
    const code = w.code[i] as number;
    const guard = GUARDS[code & 3] as WriteGuard;
    this.byCase[c]++;
    this.byGuard[guard]++;
    this.noteFound(w.t[i] as number, c);
    if (this.list.length < MAX_LISTED) {
      w.listed[i] = this.list.length;
      this.list.push({
        op,
        case: c,
        kind: code & 4 ? 'delete' : 'put',
        key: w.key[i] as string,
        guard,
        applies,
        outcome,
        attempts: w.attempts[i] as number,
        t: w.t[i] as number,
      });
    }
  }
}
