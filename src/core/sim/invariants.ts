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
import type { OpKind } from '../domain/protocol';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';
import { OpTable } from '../telemetry/opTable';
import { AvailabilityWatch } from './availabilityRule';

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

interface OpTrack {
  kind: OpKind;
  key: string;
  deadline: number | null;
  budget: number;
  phase: Phase;
  phaseAtDeadline: Phase | null;
  /** minimum version a read must see (acked before it started) */
  requiredVersion: number;
  /** the last attempt answered Conflict/NotFound: a next attempt is a retry of a real answer */
  pendingRealAnswer: KvStatus | null;
  /** counted as over its budget already (at the attempt.start that broke it) */
  overBudget: boolean;
}

interface AckedWrite {
  readonly version: number;
  readonly op: number;
  /** ms, when the client saw the acknowledgement */
  readonly t: number;
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
}
/** called on every violation as it is found (an index over time: `replay/seekIndex`) */
export type ViolationListener = (tally: TallyName, op: number) => void;

class Tally implements TallyView {
  count = 0;
  readonly examples: number[] = [];
  constructor(
    private readonly name: TallyName | null = null,
    private readonly listener: ViolationListener | undefined = undefined,
  ) {}
  add(op: number): void {
    this.count++;
    addExample(this.examples, op);
    if (this.name !== null) this.listener?.(this.name, op);
  }
}

/** the first MAX_EXAMPLES distinct ops, in the order found */
export function addExample(examples: number[], op: number): void {
  if (examples.length < MAX_EXAMPLES && !examples.includes(op)) examples.push(op);
}

export class InvariantChecker implements TelemetrySink {
  private readonly ops = new OpTable<OpTrack>();
  /** key → highest acknowledged write: its version, its op id, when it was acknowledged (ms) */
  private readonly acked = new Map<string, AckedWrite>();
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
  }

  /** checks `replicatedSegmentsAvailable` against `state` at every fault and topology event */
  watchCluster(state: ControlState): void {
    this.availability = new AvailabilityWatch(state);
  }

  /** closes the availability episodes still open when the run ends at `t` */
  finishAvailability(t: number): void {
    this.availability?.finish(t);
  }

  emit(e: ZarisEvent): void {
    // Switch first: each case reads the fields of one event type only
    // (the four per-operation types first: they are most events).
    switch (e.type) {
      case 'op.start':
        this.ops.set(e.op, {
          kind: e.kind,
          key: e.key,
          deadline: e.deadline ?? null,
          budget: e.budget ?? Infinity,
          phase: 'attempt',
          phaseAtDeadline: null,
          requiredVersion: e.kind === 'get' ? (this.acked.get(e.key)?.version ?? 0) : 0,
          pendingRealAnswer: null,
          overBudget: false,
        });
        return;
      case 'attempt.start': {
        const op = this.tracked(e.op, e.t);
        if (op === undefined) return;
        // a retry after a real answer (Conflict / NotFound) shows here
        const real = op.pendingRealAnswer;
        if (real !== null) {
          op.pendingRealAnswer = null;
          if (real === KvStatus.Conflict) this.retriedConflict.add(e.op);
          else this.retriedNotFound.add(e.op);
        }
        op.phase = 'attempt';
        // the budget breaks when the first attempt beyond it starts (event time), not when the operation ends
        if (e.attempt > op.budget && !op.overBudget) {
          op.overBudget = true;
          this.overBudget.add(e.op);
        }
        return;
      }
      case 'attempt.end': {
        const op = this.tracked(e.op, e.t);
        if (op === undefined) return;
        op.phase = 'deciding';
        if (e.status === KvStatus.Conflict || e.status === KvStatus.NotFound) op.pendingRealAnswer = e.status;
        return;
      }
      case 'op.end': {
        const op = this.tracked(e.op, e.t);
        if (op !== undefined) this.endOp(e.op, op, e);
        return;
      }
      case 'refresh.request': {
        const op = this.tracked(e.op, e.t);
        if (op !== undefined) op.phase = 'refreshWait';
        return;
      }
      case 'backoff': {
        const op = this.tracked(e.op, e.t);
        if (op !== undefined) op.phase = 'backoff';
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

  /** the tracked operation an event at `t` belongs to; notes its phase when the deadline has just passed */
  private tracked(id: number | null, t: number): OpTrack | undefined {
    if (id === null) return undefined;
    const op = this.ops.get(id);
    if (op === undefined) return undefined;
    if (op.phaseAtDeadline === null && op.deadline !== null && t > op.deadline + EPS) op.phaseAtDeadline = op.phase;
    return op;
  }

  private endOp(id: number, op: OpTrack, e: Extract<ZarisEvent, { type: 'op.end' }>): void {
    this.ops.delete(id);
    // an op.end that reports more attempts than were seen starting (a stream without them) still counts
    if (e.attempts > op.budget && !op.overBudget) this.overBudget.add(id);
    if (op.deadline !== null && e.t > op.deadline + EPS) {
      const c = this.config();
      const phase = op.phaseAtDeadline ?? op.phase;
      const allowance = phase === 'refreshWait' ? c.refreshWaitBudgetMs : phase === 'attempt' ? c.attemptTimeoutMs : 0;
      if (e.t - op.deadline > allowance + EPS) {
        if (phase === 'backoff') this.overDeadlineInBackoff.add(id);
        else this.overDeadline.add(id);
      }
    }
    if (e.status === undefined) return;
    if (op.kind === 'get') {
      if ((e.status === KvStatus.Ok || e.status === KvStatus.NotFound) && e.version !== undefined && e.version < op.requiredVersion) this.lost.add(id);
    } else if (e.status === KvStatus.Ok && e.version !== undefined) {
      if (e.version > (this.acked.get(op.key)?.version ?? 0)) this.acked.set(op.key, { version: e.version, op: id, t: e.t });
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
    for (const [key, a] of this.acked) {
      if (a.t > asOfMs) continue;
      if (versionOf(key) < a.version) {
        this.finalLost.add(a.op);
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
      this.availability === null ? null : availabilityCheck(this.availability),
    );
  }
}

/** what the final-state check found (live sessions, headless runs) */
export interface FinalCheck extends TallyView {
  readonly keys: readonly string[];
  readonly checked: boolean;
}

const NO_FINAL_CHECK: FinalCheck = { count: 0, examples: [], keys: [], checked: false };

/** the report of a set of tallies: what `InvariantChecker.report()` says for them */
export function invariantReport(config: ClientConfig, t: Readonly<Record<TallyName, TallyView>>, final: FinalCheck = NO_FINAL_CHECK, availability: InvariantCheck | null = null): InvariantReport {
  const bugs = config.bugs;
  const self = { ...t, finalLost: final, finalLostKeys: final.keys, finalChecked: final.checked };
    const lostCount = self.lost.count + self.finalLost.count;
    const okDetail = self.finalChecked
      ? 'every read saw every write acknowledged before it started; the final data holds every acknowledged version'
      : 'every read saw every write acknowledged before it started (the final data is checked on Pause)';
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
        expected: self.retriedNotFound.count === 0 && self.retriedConflict.count > 0 && bugs.retryConflict,
        detail: `Conflict retried ${self.retriedConflict.count}×, NotFound retried ${self.retriedNotFound.count}×${bugs.retryConflict && self.retriedConflict.count > 0 ? ' (expected: retryConflict is on)' : ''}`,
        examples: [...self.retriedConflict.examples, ...self.retriedNotFound.examples].slice(0, MAX_EXAMPLES),
      },
      {
        name: 'attemptBudgetKept',
        ok: self.overBudget.count === 0,
        violations: self.overBudget.count,
        expected: self.overBudget.count > 0 && bugs.deadlineReplacesAttempts,
        detail: `${self.overBudget.count} operation(s) made more attempts than their budget${bugs.deadlineReplacesAttempts && self.overBudget.count > 0 ? ' (expected: deadlineReplacesAttempts is on — the refresh storm)' : ''}`,
        examples: self.overBudget.examples,
      },
      {
        name: 'deadlineKept',
        ok: self.overDeadline.count + self.overDeadlineInBackoff.count === 0,
        violations: self.overDeadline.count + self.overDeadlineInBackoff.count,
        expected: self.overDeadline.count === 0 && self.overDeadlineInBackoff.count > 0 && bugs.unclampedBackoff,
        detail: `${self.overDeadline.count + self.overDeadlineInBackoff.count} operation(s) outlived their deadline by more than the bounded wait they were in (${self.overDeadlineInBackoff.count} in an unclamped backoff)${bugs.unclampedBackoff && self.overDeadlineInBackoff.count > 0 ? ' (expected: unclampedBackoff is on)' : ''}`,
        examples: [...self.overDeadline.examples, ...self.overDeadlineInBackoff.examples].slice(0, MAX_EXAMPLES),
      },
      // only where a shell handed over the cluster's truth (headless runs, the live test kit)
      ...(availability === null ? [] : [availability]),
    ];
    return { ok: checks.every((c) => c.ok || c.expected), checks };
}

/** the availability rule's row (only where a shell handed the checker the cluster's truth) */
function availabilityCheck(a: AvailabilityWatch): InvariantCheck {
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
