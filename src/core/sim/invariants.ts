/**
 * The invariant checker (SPEC §11), over the event stream plus the cluster's
 * ground truth at the end of the run:
 * - no acknowledged write is lost (no read sees a version older than one
 *   acknowledged before it started; the final data holds every acked version);
 * - Conflict / NotFound are never retried;
 * - no operation exceeds its attempt budget;
 * - no operation outlives its deadline by more than the bounded wait it was
 *   in when the deadline passed (attempt timeout or refresh wait budget).
 * A violation a bug toggle explains is reported as expected.
 */
import type { ClientConfig } from '../client/config';
import type { ControlState } from '../cluster/controlState';
import type { SegmentStore } from '../cluster/segmentStore';
import { segmentOf } from '../domain/segment';
import { KvStatus } from '../domain/status';
import type { AttemptEndEvent, AttemptStartEvent, OpEndEvent, OpEventSink, OpStartEvent, ZarisEvent } from '../telemetry/events';
import { grownArray, grownF64, grownI8, grownU8 } from '../grownColumns';
import { OpSlots } from '../telemetry/opSlots';
import { AvailabilityWatch, type AvailabilityReport } from './availabilityRule';

export const INVARIANTS = ['noLostAckedWrites', 'noRetriedRealAnswers', 'attemptBudgetKept', 'deadlineKept', 'replicatedSegmentsAvailable'] as const;
export type InvariantName = (typeof INVARIANTS)[number];

export interface InvariantCheck {
  readonly name: InvariantName;
  /** true when there is no violation */
  readonly ok: boolean;
  readonly violations: number;
  /** the violations are what an enabled bug toggle is known to cause */
  readonly expected: boolean;
  /** what was checked, and (when violated) what a toggle explains */
  readonly detail: string;
  /** op ids of the first violations */
  readonly examples: readonly number[];
}

export interface InvariantReport {
  /** no unexpected violation */
  readonly ok: boolean;
  readonly checks: readonly InvariantCheck[];
}

type Phase = 'attempt' | 'deciding' | 'refreshWait' | 'backoff';
/** phases as column codes (index in this list) */
const PHASES: readonly Phase[] = ['attempt', 'deciding', 'refreshWait', 'backoff'];
const ATTEMPT = 0;
const DECIDING = 1;
const REFRESH_WAIT = 2;
const BACKOFF = 3;
/** phaseAtDeadline / pendingRealAnswer: none */
const NONE = -1;
const REAL_CONFLICT = 0;
const REAL_NOT_FOUND = 1;

/**
 * Per tracked operation (columns by {@link OpSlots} slot, no object per
 * operation): its kind and key, deadline (NaN = none) and attempt budget,
 * its phase and the phase it was in when the deadline passed, the minimum
 * version a read must see (acked before it started), whether the last
 * attempt answered Conflict / NotFound (a next attempt is a retry of a real
 * answer), and whether it was counted over its budget already (at the
 * attempt.start that broke it).
 */
class OpColumns {
  isGet = new Uint8Array(0);
  key: string[] = [];
  deadline = new Float64Array(0);
  budget = new Float64Array(0);
  phase = new Int8Array(0);
  phaseAtDeadline = new Int8Array(0);
  requiredVersion = new Float64Array(0);
  pendingRealAnswer = new Int8Array(0);
  overBudget = new Uint8Array(0);
  /** the bug toggles on when the operation started ({@link bugMask}) */
  bugsAtStart = new Uint8Array(0);

  grow(n: number): void {
    this.isGet = grownU8(this.isGet, n);
    this.key = grownArray(this.key, n, '');
    this.deadline = grownF64(this.deadline, n);
    this.budget = grownF64(this.budget, n);
    this.phase = grownI8(this.phase, n);
    this.phaseAtDeadline = grownI8(this.phaseAtDeadline, n);
    this.requiredVersion = grownF64(this.requiredVersion, n);
    this.pendingRealAnswer = grownI8(this.pendingRealAnswer, n);
    this.overBudget = grownU8(this.overBudget, n);
    this.bugsAtStart = grownU8(this.bugsAtStart, n);
  }
}

const BUG_BIT = { retryConflict: 1, deadlineReplacesAttempts: 2, unclampedBackoff: 4 } as const;
/** the bug toggle that explains each tally's violations (a tally no toggle explains: none) */
const EXPLAINED_BY: Readonly<Partial<Record<TallyName, keyof typeof BUG_BIT>>> = {
  retriedConflict: 'retryConflict',
  overBudget: 'deadlineReplacesAttempts',
  overDeadlineInBackoff: 'unclampedBackoff',
};

/** the toggles of {@link EXPLAINED_BY} that are on, as bits */
function bugMask(bugs: ClientConfig['bugs']): number {
  return (bugs.retryConflict ? BUG_BIT.retryConflict : 0) | (bugs.deadlineReplacesAttempts ? BUG_BIT.deadlineReplacesAttempts : 0) | (bugs.unclampedBackoff ? BUG_BIT.unclampedBackoff : 0);
}

/**
 * Per key, the highest acknowledged write: its version, its op id and when
 * it was acknowledged (ms). A key gets a row at its first acknowledged write
 * (rows in that order); the columns hold numbers, so the read of every `get`
 * that looks its key up finds the version in the map's own table, with no
 * record to follow.
 */
class AckedWrites {
  readonly row = new Map<string, number>();
  version = new Float64Array(256);
  op = new Float64Array(256);
  t = new Float64Array(256);

  versionOf(key: string): number {
    const r = this.row.get(key);
    return r === undefined ? 0 : (this.version[r] as number);
  }

  /** records an acknowledged `version` of `key` when it is the highest so far */
  ack(key: string, version: number, op: number, t: number): void {
    let r = this.row.get(key);
    if (r === undefined) {
      if (!(version > 0)) return;
      r = this.row.size;
      if (r === this.version.length) {
        this.version = grownF64(this.version, 2 * r);
        this.op = grownF64(this.op, 2 * r);
        this.t = grownF64(this.t, 2 * r);
      }
      this.row.set(key, r);
    } else if (!(version > (this.version[r] as number))) return;
    this.version[r] = version;
    this.op[r] = op;
    this.t[r] = t;
  }
}

const MAX_EXAMPLES = 10;
const EPS = 1e-6;

/** the per-operation violation tallies the checker keeps, by name */
export const TALLIES = ['lost', 'retriedConflict', 'retriedNotFound', 'overBudget', 'overDeadline', 'overDeadlineInBackoff'] as const;
export type TallyName = (typeof TALLIES)[number];
/** a tally as the report reads it: how many, and the op ids of the first few (distinct) */
export interface TallyView {
  readonly count: number;
  readonly examples: readonly number[];
  /**
   * of those, the violations the tally's bug toggle explains: it was on when the operation
   * started or when the violation was found (absent: judged by the toggles in effect now)
   */
  readonly explained?: number;
}
/** called on every violation as it is found (an index over time: `replay/seekIndex`); `explained`: see {@link TallyView.explained} */
export type ViolationListener = (tally: TallyName, op: number, explained: boolean) => void;

class Tally implements TallyView {
  count = 0;
  explained = 0;
  readonly examples: number[] = [];
  constructor(
    private readonly name: TallyName | null = null,
    private readonly listener: ViolationListener | undefined = undefined,
  ) {}
  add(op: number, explained = false): void {
    this.count++;
    if (explained) this.explained++;
    addExample(this.examples, op);
    if (this.name !== null) this.listener?.(this.name, op, explained);
  }
}

/** the first MAX_EXAMPLES distinct ops, in the order found */
export function addExample(examples: number[], op: number): void {
  if (examples.length < MAX_EXAMPLES && !examples.includes(op)) examples.push(op);
}

export class InvariantChecker implements OpEventSink {
  /** reads events during the call only (OpEventSink.transient) */
  readonly transient = true;
  private readonly cols = new OpColumns();
  private readonly slots = new OpSlots((n) => this.cols.grow(n));
  /** key → highest acknowledged write: its version, its op id, when it was acknowledged (ms) */
  private readonly acked = new AckedWrites();
  private readonly lost: Tally;
  private readonly retriedConflict: Tally;
  private readonly retriedNotFound: Tally;
  private readonly overBudget: Tally;
  private readonly overDeadline: Tally;
  private readonly overDeadlineInBackoff: Tally;
  /** the latest final-state check: acknowledged writes the cluster's data no longer holds */
  private finalLost = new Tally();
  private finalLostKeys: string[] = [];
  private finalChecked = false;
  /** the availability rule (`availabilityRule.ts`): needs the cluster's truth, so only where a shell hands it over */
  private availability: AvailabilityWatch | null = null;
  /** the rule as a watch elsewhere reported it last (the live control worker, which holds the truth) */
  private availabilityElsewhere: AvailabilityReport | null = null;

  constructor(
    private readonly config: () => ClientConfig,
    onViolation?: ViolationListener,
  ) {
    this.lost = new Tally('lost', onViolation);
    this.retriedConflict = new Tally('retriedConflict', onViolation);
    this.retriedNotFound = new Tally('retriedNotFound', onViolation);
    this.overBudget = new Tally('overBudget', onViolation);
    this.overDeadline = new Tally('overDeadline', onViolation);
    this.overDeadlineInBackoff = new Tally('overDeadlineInBackoff', onViolation);
    this.cols.grow(this.slots.capacity);
  }

  /** checks `replicatedSegmentsAvailable` against `state` at every fault and topology event */
  watchCluster(state: ControlState): void {
    this.availability = new AvailabilityWatch(state);
  }

  /**
   * The availability rule's latest report from a watch that runs where the
   * cluster's truth is (the live control worker sends one with each cluster
   * view); listed when this checker watches no cluster itself. Returns
   * whether it differs from the last one.
   */
  reportAvailability(report: AvailabilityReport | null): boolean {
    const prev = this.availabilityElsewhere;
    this.availabilityElsewhere = report;
    if (prev === null || report === null) return prev !== report;
    return prev.violations !== report.violations || prev.examples.join('\n') !== report.examples.join('\n');
  }

  /** closes the availability episodes still open when the run ends at `t` */
  finishAvailability(t: number): void {
    this.availability?.finish(t);
  }

  opStart(e: OpStartEvent): void {
    const c = this.cols;
    const i = this.slots.add(e.op);
    const get = e.kind === 'get';
    c.isGet[i] = get ? 1 : 0;
    c.key[i] = e.key;
    c.deadline[i] = e.deadline ?? NaN;
    c.budget[i] = e.budget ?? Infinity;
    c.phase[i] = ATTEMPT;
    c.phaseAtDeadline[i] = NONE;
    c.requiredVersion[i] = get ? this.acked.versionOf(e.key) : 0;
    c.pendingRealAnswer[i] = NONE;
    c.overBudget[i] = 0;
    c.bugsAtStart[i] = this.bugsNow();
  }

  /** the explaining toggles on now (read per operation: cached while the config object stays the same) */
  private bugsNow(): number {
    const cfg = this.config();
    if (cfg !== this.maskOf) {
      this.maskOf = cfg;
      this.mask = bugMask(cfg.bugs);
    }
    return this.mask;
  }
  private maskOf: ClientConfig | null = null;
  private mask = 0;

  /** whether `tally`'s bug toggle explains a violation of the operation in slot `i`: on at its start, or now */
  private explains(tally: TallyName, i: number): boolean {
    const bug = EXPLAINED_BY[tally];
    if (bug === undefined) return false;
    return (((this.cols.bugsAtStart[i] as number) | this.bugsNow()) & BUG_BIT[bug]) !== 0;
  }

  attemptStart(e: AttemptStartEvent): void {
    const i = this.tracked(e.op, e.t);
    if (i < 0) return;
    const c = this.cols;
    // a retry after a real answer (Conflict / NotFound) shows here
    const real = c.pendingRealAnswer[i] as number;
    if (real !== NONE) {
      c.pendingRealAnswer[i] = NONE;
      if (real === REAL_CONFLICT) this.retriedConflict.add(e.op, this.explains('retriedConflict', i));
      else this.retriedNotFound.add(e.op);
    }
    c.phase[i] = ATTEMPT;
    // the budget breaks when the first attempt beyond it starts (event time), not when the operation ends
    if (e.attempt > (c.budget[i] as number) && c.overBudget[i] === 0) {
      c.overBudget[i] = 1;
      this.overBudget.add(e.op, this.explains('overBudget', i));
    }
  }

  attemptEnd(e: AttemptEndEvent): void {
    const i = this.tracked(e.op, e.t);
    if (i < 0) return;
    const c = this.cols;
    c.phase[i] = DECIDING;
    if (e.status === KvStatus.Conflict) c.pendingRealAnswer[i] = REAL_CONFLICT;
    else if (e.status === KvStatus.NotFound) c.pendingRealAnswer[i] = REAL_NOT_FOUND;
  }

  opEnd(e: OpEndEvent): void {
    const i = this.tracked(e.op, e.t);
    if (i >= 0) this.endOp(e.op, i, e);
  }

  emit(e: ZarisEvent): void {
    // Switch first: each case reads the fields of one event type only
    // (the four per-operation types first: they are most events, and a
    // fan-out calls their methods directly).
    const c = this.cols;
    switch (e.type) {
      case 'op.start':
        this.opStart(e);
        return;
      case 'attempt.start':
        this.attemptStart(e);
        return;
      case 'attempt.end':
        this.attemptEnd(e);
        return;
      case 'op.end':
        this.opEnd(e);
        return;
      case 'refresh.request': {
        const i = this.tracked(e.op, e.t);
        if (i >= 0) c.phase[i] = REFRESH_WAIT;
        return;
      }
      case 'backoff': {
        const i = this.tracked(e.op, e.t);
        if (i >= 0) c.phase[i] = BACKOFF;
        return;
      }
      case 'refresh.coalesced':
        this.tracked(e.op, e.t);
        return;
      case 'refresh.waitAbandoned':
        this.tracked(e.op, e.t);
        return;
      case 'fault':
      case 'topology':
        this.availability?.observe(e.t);
        return;
      default:
        // refresh.start / end / debounced: nothing per operation
        return;
    }
  }

  /** the slot of the tracked operation an event at `t` belongs to (-1: none); notes its phase when the deadline has just passed */
  private tracked(id: number | null, t: number): number {
    if (id === null) return -1;
    const i = this.slots.slotOf(id);
    if (i < 0) return -1;
    const c = this.cols;
    // (a NaN deadline — none — compares false)
    if (c.phaseAtDeadline[i] === NONE && t > (c.deadline[i] as number) + EPS) c.phaseAtDeadline[i] = c.phase[i] as number;
    return i;
  }

  private endOp(id: number, i: number, e: OpEndEvent): void {
    const c = this.cols;
    const deadline = c.deadline[i] as number;
    const atDeadline = c.phaseAtDeadline[i] as number;
    const phaseNow = c.phase[i] as number;
    const isGet = c.isGet[i] === 1;
    const key = c.key[i] as string;
    const requiredVersion = c.requiredVersion[i] as number;
    const overBudget = c.overBudget[i] === 1;
    const budget = c.budget[i] as number;
    // (slot i keeps its fields until the next opStart takes it: `explains` below still reads them)
    this.slots.delete(id);
    c.key[i] = '';
    // an op.end that reports more attempts than were seen starting (a stream without them) still counts
    if (e.attempts > budget && !overBudget) this.overBudget.add(id, this.explains('overBudget', i));
    if (e.t > deadline + EPS) {
      const cfg = this.config();
      const phase = PHASES[atDeadline !== NONE ? atDeadline : phaseNow] as Phase;
      const allowance = phase === 'refreshWait' ? cfg.refreshWaitBudgetMs : phase === 'attempt' ? cfg.attemptTimeoutMs : 0;
      if (e.t - deadline > allowance + EPS) {
        if (phase === 'backoff') this.overDeadlineInBackoff.add(id, this.explains('overDeadlineInBackoff', i));
        else this.overDeadline.add(id);
      }
    }
    if (e.status === undefined) return;
    if (isGet) {
      if ((e.status === KvStatus.Ok || e.status === KvStatus.NotFound) && e.version !== undefined && e.version < requiredVersion) this.lost.add(id);
    } else if (e.status === KvStatus.Ok && e.version !== undefined) {
      this.acked.ack(key, e.version, id, e.t);
    }
  }

  /** compares every acknowledged version with the cluster's final data (headless: the engine's ground truth) */
  checkFinalState(cluster: { readonly config: { readonly segments: number }; authoritative(segment: number): SegmentStore | null }): void {
    const segments = cluster.config.segments;
    this.checkFinalData((key) => cluster.authoritative(segmentOf(key, segments))?.get(key)?.version ?? 0);
  }

  /**
   * Compares every write acknowledged up to `asOfMs` with the version the
   * cluster holds now (`versionOf`: live, the nodes' data). Writes
   * acknowledged later are left out: their commit may postdate the data
   * read. Replaces the previous final-state result.
   */
  checkFinalData(versionOf: (key: string) => number, asOfMs = Infinity): void {
    this.finalLost = new Tally();
    this.finalLostKeys = [];
    const a = this.acked;
    for (const [key, r] of a.row) {
      if ((a.t[r] as number) > asOfMs) continue;
      if (versionOf(key) < (a.version[r] as number)) {
        this.finalLost.add(a.op[r] as number);
        if (this.finalLostKeys.length < MAX_EXAMPLES) this.finalLostKeys.push(key);
      }
    }
    this.finalChecked = true;
  }

  /** the tallies as the report reads them */
  tallies(): Record<TallyName, TallyView> {
    return { lost: this.lost, retriedConflict: this.retriedConflict, retriedNotFound: this.retriedNotFound, overBudget: this.overBudget, overDeadline: this.overDeadline, overDeadlineInBackoff: this.overDeadlineInBackoff };
  }

  report(): InvariantReport {
    return invariantReport(
      this.config(),
      this.tallies(),
      { count: this.finalLost.count, examples: this.finalLost.examples, keys: this.finalLostKeys, checked: this.finalChecked },
      this.availability !== null ? availabilityCheck(this.availability) : this.availabilityElsewhere !== null ? availabilityCheck(this.availabilityElsewhere) : null,
    );
  }
}

/** a live session's note on the final-state check before it ran (a replay says its own: `inReplayWords`) */
export const FINAL_DATA_ON_PAUSE = 'the final data is checked on Pause';

/** what the final-state check found (live sessions, headless runs) */
export interface FinalCheck extends TallyView {
  readonly keys: readonly string[];
  readonly checked: boolean;
}

const NO_FINAL_CHECK: FinalCheck = { count: 0, examples: [], keys: [], checked: false };

/**
 * Whether a bug toggle explains every violation of a tally: each was found while the toggle was
 * on (at its operation's start or then) — so the badge does not turn "violated" when the toggle
 * is switched off afterwards. Tallies without that count are judged by the toggle now.
 */
function allExplained(t: TallyView, onNow: boolean): boolean {
  return t.count > 0 && (t.explained === undefined ? onNow : t.explained === t.count);
}

/** the detail's note on a toggle that explains a tally's violations (all, some, or none) */
function explanation(t: TallyView, onNow: boolean, bug: string, storm: string): string {
  if (t.count === 0) return '';
  if (t.explained === undefined) return onNow ? ` (expected: ${bug} is on${storm})` : '';
  if (t.explained === t.count) return ` (expected: ${bug} ${onNow ? 'is' : 'was'} on${storm})`;
  return t.explained > 0 ? ` (${t.explained} of them while ${bug} was on)` : '';
}

/** the report of a set of tallies: what `InvariantChecker.report()` says for them */
export function invariantReport(config: ClientConfig, t: Readonly<Record<TallyName, TallyView>>, final: FinalCheck = NO_FINAL_CHECK, availability: InvariantCheck | null = null): InvariantReport {
  const bugs = config.bugs;
  const self = { ...t, finalLost: final, finalLostKeys: final.keys, finalChecked: final.checked };
    const lostCount = self.lost.count + self.finalLost.count;
    const okDetail = self.finalChecked
      ? 'every read saw every write acknowledged before it started; the final data holds every acknowledged version'
      : `every read saw every write acknowledged before it started (${FINAL_DATA_ON_PAUSE})`;
    const checks: InvariantCheck[] = [
      {
        name: 'noLostAckedWrites',
        ok: lostCount === 0,
        violations: lostCount,
        expected: false,
        detail:
          lostCount === 0
            ? okDetail
            : `${self.lost.count} stale read(s) after an acknowledged write; ${self.finalLost.count} key(s) lost an acknowledged version${self.finalLost.count > 0 ? ` (${self.finalLostKeys.slice(0, 5).join(', ')}; the ops that wrote them are the counterexamples)` : ''}`,
        examples: [...self.lost.examples, ...self.finalLost.examples].slice(0, MAX_EXAMPLES),
      },
      {
        name: 'noRetriedRealAnswers',
        ok: self.retriedConflict.count + self.retriedNotFound.count === 0,
        violations: self.retriedConflict.count + self.retriedNotFound.count,
        expected: self.retriedNotFound.count === 0 && allExplained(self.retriedConflict, bugs.retryConflict),
        detail: `Conflict retried ${self.retriedConflict.count}×, NotFound retried ${self.retriedNotFound.count}×${explanation(self.retriedConflict, bugs.retryConflict, 'retryConflict', '')}`,
        examples: [...self.retriedConflict.examples, ...self.retriedNotFound.examples].slice(0, MAX_EXAMPLES),
      },
      {
        name: 'attemptBudgetKept',
        ok: self.overBudget.count === 0,
        violations: self.overBudget.count,
        expected: allExplained(self.overBudget, bugs.deadlineReplacesAttempts),
        detail: `${self.overBudget.count} operation(s) made more attempts than their budget${explanation(self.overBudget, bugs.deadlineReplacesAttempts, 'deadlineReplacesAttempts', ' — the refresh storm')}`,
        examples: self.overBudget.examples,
      },
      {
        name: 'deadlineKept',
        ok: self.overDeadline.count + self.overDeadlineInBackoff.count === 0,
        violations: self.overDeadline.count + self.overDeadlineInBackoff.count,
        expected: self.overDeadline.count === 0 && allExplained(self.overDeadlineInBackoff, bugs.unclampedBackoff),
        detail: `${self.overDeadline.count + self.overDeadlineInBackoff.count} operation(s) outlived their deadline by more than the bounded wait they were in (${self.overDeadlineInBackoff.count} in an unclamped backoff)${explanation(self.overDeadlineInBackoff, bugs.unclampedBackoff, 'unclampedBackoff', '')}`,
        examples: [...self.overDeadline.examples, ...self.overDeadlineInBackoff.examples].slice(0, MAX_EXAMPLES),
      },
      // only where a shell handed over the cluster's truth (headless runs, the live test kit)
      ...(availability === null ? [] : [availability]),
    ];
    return { ok: checks.every((c) => c.ok || c.expected), checks };
}

/** the availability rule's row (only where a shell handed the checker the cluster's truth; a replay: at its cursor) */
export function availabilityCheck(a: AvailabilityReport): InvariantCheck {
  return {
    name: 'replicatedSegmentsAvailable',
    ok: a.violations === 0,
    violations: a.violations,
    expected: false,
    detail:
      a.violations === 0
        ? 'no segment with an up, caught-up replica was unavailable longer than detection + promotion'
        : `${a.violations} time(s) a segment with an up, caught-up member was unavailable or short of that replica longer than detection + promotion (${a.examples.join('; ')})`,
    examples: [],
  };
}
