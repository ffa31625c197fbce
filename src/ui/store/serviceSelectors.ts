/**
 * Named pure selectors that say what is going on: the one-line "what you are
 * seeing" (session state), and the evidence card each fault leaves. They
 * read the headline (service judged by core/domain/service) and the fault
 * evidence folded from the event stream; nothing here knows a preset.
 */
import { STALL_THRESHOLD_MS } from '../../core/domain/service';
import type { FaultAction } from '../../core/telemetry/events';
import { BASELINE_MS, fellBelowBaseline, openRecord, ownStalled, SLOWED_FACTOR, type FaultEvidence } from '../../core/telemetry/faultEvidence';
import type { WorkloadConfig } from '../../core/sim/workloadConfig';
import { AMBIGUOUS_CASES, type AmbiguousCase, type AmbiguousWrite, type WriteAuditReport } from '../../core/sim/applyTracker';
import { formatCount, formatCounted, formatLatency, formatRate, formatSeconds, formatShare } from './numberFormat';
import { HEADLINE_WINDOW_LABEL, HEADLINE_WINDOW_MS, selectHeadline, type Headline } from './summarySelectors';
import type { DashboardState } from './storeTypes';
import { openPauseFrom, type PauseSpan } from './snapshot';

export const SESSION_STATES = ['idle', 'starting', 'healthy', 'fault', 'recovering', 'storm', 'paused'] as const;
export type SessionState = (typeof SESSION_STATES)[number];

/** a pool held by stalled operations at or above this share is starved (a storm, whatever caused it) */
export const STARVED_POOL_SHARE = 0.5;

const FAULT_VERB: Readonly<Record<FaultAction, string>> = {
  failover: 'failover (crash) of node',
  scaleOut: 'scale-out: node',
  failback: 'failback of node',
  hang: 'hang of node',
  resume: 'resume of node',
  slow: 'slow link to node',
  lostAck: 'lost acknowledgements from node',
  partition: 'one-way partition of node',
  garble: 'garbled replies from node',
};

/** "failover (crash) of node 1" */
export function describeFault(e: { readonly action: FaultAction; readonly node: number }): string {
  return `${FAULT_VERB[e.action]} ${e.node}${e.action === 'scaleOut' ? ' joins' : ''}`;
}

/** "the failover (crash) of node 1 at 4 s" */
function faultAt(e: FaultEvidence): string {
  return `the ${describeFault(e)} at ${formatSeconds(e.t)}`;
}

/** the workload's request pool: open-loop slots plus closed-loop users */
export function selectPoolSize(w: WorkloadConfig): number {
  return (w.ratePerSec > 0 ? w.maxInFlight : 0) + w.concurrency;
}

export interface SessionStateInput {
  readonly headline: Headline;
  /** the session ever ran */
  readonly started: boolean;
  readonly evidence: readonly FaultEvidence[];
  readonly poolSize: number;
  /** newest event time, ms */
  readonly nowMs: number;
  /** when the workload was paused (ms), while it is; absent: unknown, `nowMs` is said */
  readonly pausedAtMs?: number | null;
  /** operations in flight that started an attempt beyond their budget (absent: 0) */
  readonly overBudgetInFlight?: number;
  /** a replay at its cursor (ms): the line says what the run shows there, with no Live instructions (absent: Live) */
  readonly replayCursorMs?: number;
}

export interface SessionStateLine {
  readonly state: SessionState;
  /** short label for the state ("storm — not serving") */
  readonly label: string;
  /** the sentence under the header */
  readonly text: string;
}

const pct = (share: number | null) => (share === null ? '—' : formatShare(share, 1));

/** amplification facts of a fault record ("14 attempts and 14 refresh requests per op hit") */
function amplification(e: FaultEvidence): string | null {
  if (e.opsHit === 0) return null;
  const attempts = 1 + e.retries / e.opsHit;
  const refresh = e.refreshRequests / e.opsHit;
  // "per op hit", the cards' own term: a hit op may still end served, so "failing" would contradict "0 failed"
  const a = formatRate(attempts);
  const r = formatRate(refresh);
  return `${a} attempt${a === '1' ? '' : 's'} and ${r} refresh request${r === '1' ? '' : 's'} per op hit`;
}

/**
 * "throughput 824 ops/s, 5 % of the 17k ops/s before the fault" when the served rate is below
 * half of the open fault's baseline ({@link fellBelowBaseline}), else null. The demand share alone can read
 * "93 % served" while throughput collapses: closed-loop users waiting on their attempts ask for
 * less, so little demand is met almost in full.
 */
export function throughputDrop(open: FaultEvidence | null, servedPerSec: number): string | null {
  const base = open?.servedBaselinePerSec ?? null;
  if (!fellBelowBaseline(servedPerSec, base)) return null;
  return `throughput ${formatRate(servedPerSec)} ops/s, ${pct(servedPerSec / base)} of the ${formatRate(base)} ops/s before the fault`;
}

/**
 * "98 ops stalled > 1 s (all from the failover (crash) of node 1 at 2 s)": the status line splits the
 * stalled gauge as the fault cards do ({@link ownStalled}), so a later fault is not read as stalling
 * the operations an earlier one hit (they stay on that fault's card).
 */
function stalledPhrase(open: FaultEvidence | null, stalled: number, evidence: readonly FaultEvidence[], noun: string): string {
  const head = `${formatCounted(stalled, noun)} stalled > ${formatSeconds(STALL_THRESHOLD_MS)}`;
  if (open === null) return head;
  const carried = stalled - ownStalled(open, stalled);
  if (carried <= 0) return head;
  const from = open.carried.filter((c) => c.inFlight > 0).map((c) => evidence.find((o) => o.id === c.from));
  const name = from.length === 1 && from[0] !== undefined ? faultAt(from[0]) : 'earlier faults';
  return `${head} (${carried >= stalled ? 'all' : `${formatCount(carried)} of them`} from ${name})`;
}

/** the session state and the one line under the header that says what the screen shows (Live), or what the run shows at the cursor (Replay) */
export function selectSessionState(x: SessionStateInput): SessionStateLine {
  const line = liveSessionState(x);
  const at = x.replayCursorMs;
  if (at === undefined) return line;
  const cursor = `At ${formatSeconds(at)}`;
  if (line.state === 'idle') return { ...line, text: `${cursor} the workload has not started yet: nothing was sent.` };
  if (line.state === 'paused') {
    return { ...line, text: `${cursor} the workload is paused${x.pausedAtMs != null ? ` (since ${formatSeconds(x.pausedAtMs)})` : ''}: nothing is sent, so the rate tiles read 0${x.headline.inFlight > 0 ? ` (${formatCount(x.headline.inFlight)} still in flight)` : ''}.` };
  }
  // the Live line without its next step, prefixed with the cursor's time
  return { ...line, text: `${cursor}: ${line.text}` };
}

function liveSessionState(x: SessionStateInput): SessionStateLine {
  // a replay has no buttons to press next
  const nextStep = x.replayCursorMs === undefined && x.evidence.length === 0 ? ' Next: press Failover to crash a node.' : '';
  const h = x.headline;
  const open = openRecord(x.evidence);
  if (!x.started && !h.running) {
    return { state: 'idle', label: 'idle', text: 'Nothing is running yet. Press Start to send the workload to the cluster; then press Failover to crash a node and watch the client recover.' };
  }
  if (!h.running) {
    return {
      state: 'paused',
      label: 'paused',
      text: `Paused at t = ${formatSeconds(x.pausedAtMs ?? x.nowMs)}: no new operations are sent, so the rate tiles read 0 while the charts keep the session so far (the pause shaded)${h.inFlight > 0 ? ` (${formatCount(h.inFlight)} still in flight)` : ''}. Press Start to resume.`,
    };
  }
  if (h.service.verdict === 'idle' && open === null) {
    // running, but no operation has ended, stalled or been turned away in the window yet: nothing to judge
    return { state: 'starting', label: 'starting', text: `Starting: operations are on their way; the first figures come as they end (${HEADLINE_WINDOW_LABEL}).` };
  }
  const served = h.service.share === null ? `no operation ended, stalled or was turned away (${HEADLINE_WINDOW_LABEL})` : `${pct(h.service.share)} of demand served (${HEADLINE_WINDOW_LABEL})`;
  const since = open !== null ? ` ${formatSeconds(Math.max(0, x.nowMs - open.t))} ago` : '';
  const starved = x.poolSize > 0 && h.stalled >= STARVED_POOL_SHARE * x.poolSize;
  if (h.service.verdict === 'notServing' && (starved || h.rejectedPerSec > 0)) {
    // turn-aways count over the window, the pool's fill is now: a pool that has room again says so
    const roomNow = x.poolSize > 0 && h.inFlight < x.poolSize;
    const why = [
      // the share is the stalled ops' own (the in-flight tile shows the whole pool's fill next to it)
      h.stalled > 0
        ? `${stalledPhrase(open, h.stalled, x.evidence, 'operation')} hold ${x.poolSize > 0 ? `${pct(Math.min(1, h.stalled / x.poolSize))} of the request pool (${formatCount(x.poolSize)} slots)` : 'the request pool'}`
        : null,
      h.rejectedPerSec > 0
        ? `${formatRate(h.rejectedPerSec)} arrivals/s turned away (request pool full)${!starved && roomNow ? `; the pool has room again now (${formatCount(h.inFlight)} of ${formatCount(x.poolSize)} in flight)` : ''}`
        : null,
      open !== null && open.healthyLostMs > 0 ? `healthy segments starved for ${formatSeconds(open.healthyLostMs)} so far` : null,
    ].filter(Boolean);
    const amp = open !== null ? amplification(open) : null;
    // a storm is retrying past the budget; a pool held by operations that keep within it (a hang, lost acks) is not one
    const storm = open !== null && open.overBudget > 0;
    // operations past their budget that this fault did not send there: an earlier storm still holds the pool
    const earlierStorm = !storm && (x.overBudgetInFlight ?? 0) > 0;
    const cause = storm
      ? amp === null
        ? ''
        : ` Cause: ${amp}, ${formatCounted((open as FaultEvidence).overBudget, 'op')} past their attempt budget.`
      : earlierStorm
        ? ` Cause: ${formatCounted(x.overBudgetInFlight ?? 0, 'operation')} still retrying past their attempt budget from an earlier fault's storm${open !== null ? `, not the ${describeFault(open)}` : ''} (they keep the policy they started with until their deadline).`
        : amp === null
          ? ''
          : ` The operations the fault hit made ${amp}, within their budget.`;
    return {
      state: 'storm',
      label: storm || earlierStorm ? 'storm — not serving' : starved || !roomNow ? 'not serving — pool held' : 'not serving — pool was full',
      text: `Not serving${open !== null ? ` during the ${describeFault(open)},${since}` : ''}: ${served}. ${why.join('; ')}.${cause}`,
    };
  }
  // operations still retrying past their budget: not "recovering", whatever the share of the last second says (a storm's first second reads ≈ 100 %)
  const retryingPastBudget = open !== null && (x.overBudgetInFlight ?? 0) > 0;
  if (h.service.verdict !== 'healthy' || retryingPastBudget) {
    const parts = [throughputDrop(open, h.servedPerSec), h.failedPerSec > 0 ? `${formatRate(h.failedPerSec)} ops/s fail` : null, h.rejectedPerSec > 0 ? `${formatRate(h.rejectedPerSec)} arrivals/s turned away` : null, h.stalled > 0 ? stalledPhrase(open, h.stalled, x.evidence, 'op') : null].filter(Boolean);
    // "within its bounds" only while the open fault has no operation past its attempt budget (a bug toggle breaks it)
    const client =
      open !== null && open.overBudget > 0
        ? `${formatCounted(open.overBudget, 'op')} went past their attempt budget${retryingPastBudget ? ` (${formatCount(x.overBudgetInFlight ?? 0)} still retrying)` : ''}: the client's bounds do not hold.`
        : open !== null && retryingPastBudget
          ? `The operations this fault hit keep within their bounds; ${formatCounted(x.overBudgetInFlight ?? 0, 'operation')} from an earlier fault's storm ${(x.overBudgetInFlight ?? 0) === 1 ? 'is' : 'are'} still retrying past their budget (they keep the policy they started with until their deadline).`
          : 'The client retries within its bounds and refreshes its map.';
    const harm = `${served}${parts.length > 0 ? `; ${parts.join(', ')}` : ''}.`;
    if (open === null) {
      // no fault is open (none injected yet, or every card has closed): this is not "fault in progress" —
      // turn-aways alone come from a full request pool, which a busy browser or a workload above what the
      // cluster answers gives too
      const last = x.evidence[x.evidence.length - 1];
      const none = last === undefined ? 'no fault injected yet' : `no fault open (the last, the ${describeFault(last)} at ${formatSeconds(last.t)}, has settled)`;
      const pool = h.rejectedPerSec > 0 ? ' The request pool was full: arrivals came faster than answers.' : '';
      return { state: 'fault', label: 'degraded — no fault open', text: `Degraded with ${none}: ${harm}${pool}` };
    }
    return { state: 'fault', label: 'fault in progress', text: `Fault in progress — ${describeFault(open)},${since}: ${harm} ${client}` };
  }
  if (open !== null) {
    // "recovering" needs harm to recover from, and a window that is after the fault: a fault of a
    // moment ago is judged on a second that was mostly before it (it read "recovering … again" at 0.08 s)
    const harmed = open.opsHit > 0 || open.failed > 0 || open.rejected > 0 || open.stalledPeak > 0;
    if (!harmed || x.nowMs - open.t < HEADLINE_WINDOW_MS) {
      return {
        state: 'fault',
        label: 'fault in progress',
        text: `Fault in progress — ${describeFault(open)},${since}: ${harmed ? `${served.replace(/\)$/, ', mostly before the fault)')}` : `${served}; ${unharmed(open)}`}.`,
      };
    }
    const drop = throughputDrop(open, h.servedPerSec);
    return {
      state: 'recovering',
      label: 'recovering',
      text: `Recovering from the ${describeFault(open)},${since}: ${served} again${drop !== null ? `, but ${drop}` : ''}; the fault's card closes after 3 s without a failing attempt, stall or rejection.`,
    };
  }
  return {
    state: 'healthy',
    label: 'running healthy',
    text: `Running healthy: ${served}, ${formatRate(h.servedPerSec)} ops/s${h.p99Ms !== null ? `, p99 ${formatLatency(h.p99Ms)}` : ''}.${nextStep}`,
  };
}

export type EvidenceSeverity = 'ok' | 'warn' | 'bad';

export interface EvidenceCard {
  readonly id: number;
  /** "failover (crash) of node 1 at 12.3 s" */
  readonly title: string;
  /** "ongoing · 2.1 s" / "recovering · 6 s" / "settled after 4.2 s" / "open at pause · 3 s" */
  readonly status: string;
  readonly severity: EvidenceSeverity;
  /** the findings, worst first */
  readonly facts: readonly string[];
  /** how much the fault hurt, to rank cards (a bad card first, then operations not served — failed, turned away, stalled —, then hit) */
  readonly impact: number;
  /** the earlier fault, still hurting when this one came ("the failover (crash) of node 1 at 4 s") */
  readonly tookOver?: string;
  /** what became of it, the sentence beside the facts: the operations earlier faults hit stay theirs, and how many still stall */
  readonly tookOverNote?: string;
}

/** what a card is read against besides its fault's record */
export interface CardContext {
  /** the request pool, for the share of it the fault held */
  readonly poolSize: number;
  /** ms since the session started */
  readonly nowMs: number;
  /** false: the session is paused (default true) */
  readonly running?: boolean;
  /** the stalled gauge the tiles show now */
  readonly stalledNow?: number;
  /** the service verdict the tiles and the status line show is healthy: an open card is then recovering, as the status line says */
  readonly serviceHealthy?: boolean;
  /** the workload's pauses: a card's durations say how much of them was paused, and stand still while paused */
  readonly pauses?: readonly PauseSpan[];
}

/** ms of [from, to) the workload was paused (an open pause runs on) */
function pausedWithin(pauses: readonly PauseSpan[], from: number, to: number): number {
  let ms = 0;
  for (const p of pauses) ms += Math.max(0, Math.min(to, p.to ?? Infinity) - Math.max(from, p.from));
  return ms;
}

/** "6.1 s", or "6.1 s (4.2 s of it paused)" */
function spanText(pauses: readonly PauseSpan[], from: number, to: number): string {
  const paused = pausedWithin(pauses, from, to);
  return `${formatSeconds(Math.max(0, to - from))}${paused >= 100 ? ` (${formatSeconds(paused)} of it paused)` : ''}`;
}

/** what an open fault that has failed, stalled and turned away nothing did so far: answers came slowly, or nothing */
function unharmed(e: FaultEvidence): string {
  return e.slowed > 0 && e.slowBaselineMs !== null
    ? `no operation hit, but ${formatCount(e.slowed)} answered over ${SLOWED_FACTOR}× slower than the p99 before it (${formatLatency(e.slowBaselineMs)})`
    : 'no operation hit so far';
}

/** One fault's evidence as a card; `ambiguous` the ambiguous writes known in its span. */
export function selectEvidenceCard(e: FaultEvidence, ctx: CardContext, ambiguous: AmbiguousCount | null = null): EvidenceCard {
  const { poolSize, running = true, stalledNow = 0, serviceHealthy = false, pauses = [] } = ctx;
  // paused, a card's clock stands at the pause (in-flight operations and the cluster's events run on after it)
  const nowMs = !running ? (openPauseFrom(pauses) ?? ctx.nowMs) : ctx.nowMs;
  const facts: string[] = [];
  // the recorded peak samples each bucket once it is complete (the same for any batch cut), so while the
  // fault is open it can trail the live gauge by one bucket: "up to" never reads below the tile beside it
  // only the open record reads the live gauges: a record the next fault closed keeps what it saw until then
  const open = e.settledT === null && e.supersededT === null;
  // the stalled operations an earlier fault hit are not this card's (they are named beside its facts)
  const ownStalledNow = ownStalled(e, stalledNow);
  const stalledPeak = open ? Math.max(e.stalledPeak, ownStalledNow) : e.stalledPeak;
  if (e.overBudget > 0) facts.push(`attempt budget exceeded by ${formatCounted(e.overBudget, 'op')}`);
  if (e.healthyLostMs > 0 && e.healthyBaselinePerSec !== null) {
    facts.push(`healthy throughput lost for ${formatSeconds(e.healthyLostMs)} (the segments no fault named below half of their ${formatRate(e.healthyBaselinePerSec)} ops/s before it)`);
  }
  if (e.servedLowPerSec !== null && fellBelowBaseline(e.servedLowPerSec, e.servedBaselinePerSec)) {
    facts.push(`throughput fell to ${pct(e.servedLowPerSec / e.servedBaselinePerSec)} of the ${formatRate(e.servedBaselinePerSec)} ops/s before the fault (lowest second: ${formatRate(e.servedLowPerSec)} ops/s)`);
  }
  if (stalledPeak > 0) facts.push(`up to ${formatCounted(stalledPeak, 'op')} stalled > ${formatSeconds(STALL_THRESHOLD_MS)}${poolSize > 0 ? ` (pool ${formatCount(poolSize)})` : ''}`);
  if (e.rejected > 0) facts.push(`${formatCount(e.rejected)} arrivals turned away (pool full)`);
  const amp = amplification(e);
  if (amp !== null) facts.push(amp);
  // while the fault is open, stalled operations have not ended: "0 failed" alone would read as no harm
  const stillStalled = open && ownStalledNow > 0 ? `, ${formatCount(ownStalledNow)} still stalled` : '';
  if (e.opsHit > 0) facts.push(`${formatCounted(e.opsHit, 'op')} hit, ${formatCount(e.failed)} failed${stillStalled}`);
  else if (e.failed > 0) facts.push(`${formatCounted(e.failed, 'op')} failed`);
  // nothing failed, but answers came slowly: a slow link's only mark
  if (e.slowed > 0 && e.slowBaselineMs !== null) {
    facts.push(`${formatCounted(e.slowed, 'op')} answered over ${SLOWED_FACTOR}× slower than the p99 of the ${formatSeconds(BASELINE_MS)} before (up to ${formatLatency(e.slowestMs)}; p99 before: ${formatLatency(e.slowBaselineMs)})`);
  }
  // "0 failed" is not "no harm": a write applied but answered failed, or applied twice, is the caller's to resolve
  const amb = ambiguous !== null && ambiguous.count > 0 ? ambiguous : null;
  if (amb !== null) {
    // every case was applied; the case says how the caller's answer hid it
    if (amb.byCase === null) facts.push(`at least ${formatCount(amb.count)} of the session's ${formatCount(amb.total)} ambiguous writes: applied, but the caller could not know (listed in Ambiguous writes)`);
    else facts.push(`${formatCount(amb.count)} ambiguous write${amb.count === 1 ? '' : 's'}, applied but the caller could not know: ${ambiguousCases(amb.byCase)} (listed in Ambiguous writes)`);
  }
  if (facts.length === 0) facts.push('no operation affected');
  const starved = poolSize > 0 && stalledPeak >= STARVED_POOL_SHARE * poolSize;
  const bad = e.overBudget > 0 || e.rejected > 0 || starved || e.healthyLostMs >= 1000;
  const warn = e.failed > 0 || e.healthyLostMs > 0 || e.opsHit > 0 || e.slowed > 0 || amb !== null;
  return {
    id: e.id,
    // harm as the tiles judge service: operations not served (failed, turned away, stalled > 1 s) — a storm that
    // fails nothing but holds the pool and turns thousands away hurt more than a failover that failed fast
    impact: (bad ? 1e12 : 0) + (e.failed + e.rejected + e.stalledPeak) * 1e3 + e.opsHit,
    // a link fault's side and strength belong to what happened ("replies of the node lost for 5 s")
    title: `${describeFault(e)} at ${formatSeconds(e.t)}${e.detail !== undefined ? ` — ${e.detail}` : ''}`,
    status:
      e.settledT !== null
        ? `settled after ${spanText(pauses, e.t, e.settledT)}`
        : e.supersededT !== null
          ? `until the next fault · ${spanText(pauses, e.t, e.supersededT)}`
          : // demand served in full is "recovering" — unless answers still come slowly (a slow link fails nothing) or the fault is still in effect
            `${!running ? 'open at pause' : e.untilT !== null && nowMs < e.untilT ? `in effect until ${formatSeconds(e.untilT)}` : serviceHealthy && e.slowed === 0 ? 'recovering' : 'ongoing'} · ${spanText(pauses, e.t, Math.max(e.t, nowMs))}`,
    severity: bad ? 'bad' : warn ? 'warn' : 'ok',
    facts,
  };
}

/** ambiguous writes known in a time span; `atLeast` when only a lower bound is known (the audit counts more than it lists) */
export interface AmbiguousCount {
  readonly count: number;
  readonly atLeast: boolean;
  /** the session's ambiguous writes in all */
  readonly total: number;
  /** the span's writes by case, where its count is exact (null for a lower bound) */
  readonly byCase: Readonly<Record<AmbiguousCase, number>> | null;
}

/**
 * The ambiguous writes that became known (their operation ended) in [`from`, `to`). The audit
 * counts every one but lists only the first by the time they were known; it also notes, at every
 * fault, how many were known before it (`knownBefore`). So the writes known before a time `x` are
 * known exactly at a fault's time, where the list reaches past `x` (an unlisted write is known
 * after the last listed one), where the list is complete, and for `x` = ∞ (the total). A fault
 * card's span runs from its fault to the next one (or ∞), so it gets its exact count; a span
 * with an end known neither way gets the listed writes in it as a lower bound.
 */
export function ambiguousDuring(audit: WriteAuditReport, from: number, to: number): AmbiguousCount {
  const a0 = audit.ambiguous;
  const list = a0.list;
  const complete = a0.total <= list.length;
  const lastListed = list.length > 0 ? (list[list.length - 1] as AmbiguousWrite).t : -Infinity;
  const knownBefore = (x: number): Readonly<Record<AmbiguousCase, number>> | null => {
    if (x === Infinity) return a0.byCase;
    const mark = audit.knownBefore?.find((m) => m.t === x && m.exact);
    if (mark !== undefined) return mark.byCase;
    if (!complete && x > lastListed) return null;
    const n = { appliedReportedFailed: 0, appliedTwice: 0, ownConflict: 0 };
    for (const w of list) if (w.t < x) n[w.case]++;
    return n;
  };
  const a = knownBefore(from);
  const b = knownBefore(to);
  if (a !== null && b !== null) {
    const byCase = Object.fromEntries(AMBIGUOUS_CASES.map((c) => [c, b[c] - a[c]])) as Record<AmbiguousCase, number>;
    return { count: AMBIGUOUS_CASES.reduce((n, c) => n + byCase[c], 0), atLeast: false, total: a0.total, byCase };
  }
  let listed = 0;
  for (const w of list) if (w.t >= from && w.t < to) listed++;
  return { count: listed, atLeast: true, total: a0.total, byCase: null };
}

/** "282 applied twice, 62 Conflict from their own attempt" (the cases with writes, the panel's words) */
function ambiguousCases(byCase: Readonly<Record<AmbiguousCase, number>>): string {
  const words: Readonly<Record<AmbiguousCase, (n: number) => string>> = {
    appliedReportedFailed: () => 'applied but reported failed',
    appliedTwice: () => 'applied twice',
    ownConflict: (n) => `Conflict from ${n === 1 ? 'its' : 'their'} own attempt`,
  };
  return AMBIGUOUS_CASES.filter((c) => byCase[c] > 0)
    .map((c) => `${formatCount(byCase[c])} ${words[c](byCase[c])}`)
    .join(', ');
}

/**
 * The cards still shown (not dismissed), newest first. `audit`: the session's write audit; a
 * card counts the ambiguous writes known from its fault until the next fault.
 */
export function selectEvidenceCards(evidence: readonly FaultEvidence[], dismissed: readonly number[], ctx: CardContext, audit: WriteAuditReport | null = null): EvidenceCard[] {
  const gone = new Set(dismissed);
  const nextFaultAfter = (t: number): number => evidence.reduce((m, o) => (o.t > t && o.t < m ? o.t : m), Infinity);
  return evidence
    .filter((e) => !gone.has(e.id))
    .map((e) => {
      const card = selectEvidenceCard(e, ctx, audit === null ? null : ambiguousDuring(audit, e.t, nextFaultAfter(e.t)));
      // a fault that came while an earlier one still hurt: the card says so beside its facts, with the operations
      // earlier faults hit that were still in flight (they stay theirs, so "2,048 ops hit" is not read as this fault's)
      const before = evidence.find((o) => o.supersededT !== null && o.t < e.t && o.supersededT === e.t && (o.opsHit > 0 || o.stalledPeak > 0 || o.failed > 0 || o.rejected > 0 || o.carried.some((c) => c.inFlight > 0)));
      const from = before ?? evidence.find((o) => o.id === e.carried[0]?.from);
      if (from === undefined) return card;
      const tookOver = faultAt(from);
      return { ...card, tookOver, tookOverNote: tookOverNote(e, tookOver, evidence, ctx.nowMs) };
    })
    .reverse();
}

/**
 * "Took over from the failover (crash) of node 1 at 4 s, still ongoing when this fault came. 2,048 ops still
 * stalled from it (2,048 in flight when this fault came): …" — the operations earlier faults hit stay theirs
 * (core/telemetry/faultEvidence's one rule); this says how many there were and what became of them.
 */
function tookOverNote(e: FaultEvidence, tookOver: string, evidence: readonly FaultEvidence[], nowMs: number): string {
  const head = `Took over from ${tookOver}, still ongoing when this fault came`;
  const rest = 'arrivals turned away and throughput lost count here from then on, whatever holds the pool';
  if (e.carried.length === 0) return `${head}: the operations it hit stay on its card; ${rest}.`;
  const open = e.settledT === null && e.supersededT === null;
  const end = open ? nowMs : (e.supersededT ?? e.settledT ?? e.lastT);
  // they started before this fault: from 1 s after it on, every one still in flight is stalled
  const still = end - e.t >= STALL_THRESHOLD_MS ? 'stalled' : 'in flight';
  const parts = e.carried.map((c) => {
    const r = evidence.find((o) => o.id === c.from);
    const name = r === undefined ? 'an earlier fault' : faultAt(r);
    const failed = c.failed > 0 ? `, ${formatCount(c.failed)} failed since` : '';
    return c.inFlight > 0
      ? `${formatCounted(c.inFlight, 'op')} still ${still} from ${name}${open ? '' : ' when this card closed'} (${formatCount(c.ops)} in flight when this fault came${failed})`
      : `${formatCounted(c.ops, 'op')} from ${name} ${c.ops === 1 ? 'was' : 'were'} in flight when this fault came; ${c.ops === 1 ? 'it' : 'all'} ${open ? (c.ops === 1 ? 'has ended' : 'have ended') : 'had ended when this card closed'}${failed !== '' ? ` (${formatCount(c.failed)} failed)` : ''}`;
  });
  return `${head}. ${parts.join('; ')}: they stay on the card of the fault that hit them, not counted here as hit, stalled or failed; ${rest}.`;
}

/** what the status line and the fault cards read from a dashboard store */
export type StoryState = Pick<DashboardState, 'snapshot' | 'running' | 'everStarted' | 'workload' | 'pauseSpans' | 'dismissedEvidence' | 'writeAudit'>;

/** the status line of a store's state (Live; Replay at `replayCursorMs`) — the page and the Replay report read the same */
export function sessionLineOf(s: StoryState, replayCursorMs?: number): SessionStateLine {
  const snap = s.snapshot;
  return selectSessionState({
    headline: selectHeadline(snap, s.running),
    started: s.everStarted,
    evidence: snap.evidence,
    poolSize: selectPoolSize(s.workload),
    nowMs: snap.totals.lastT,
    // (a replay's frame closes a pause still open at the cursor there)
    pausedAtMs: openPauseFrom(s.pauseSpans) ?? (replayCursorMs !== undefined ? (s.pauseSpans.find((p) => p.to === replayCursorMs)?.from ?? null) : null),
    overBudgetInFlight: snap.overBudgetInFlight,
    ...(replayCursorMs !== undefined ? { replayCursorMs } : {}),
  });
}

/** the fault cards of a store's state, newest first (the page and the Replay report read the same) */
export function evidenceCardsOf(s: StoryState): EvidenceCard[] {
  const snap = s.snapshot;
  // the verdict the tiles and the status line show: served again, an open card is recovering
  const serviceHealthy = selectHeadline(snap, s.running).service.verdict === 'healthy';
  return selectEvidenceCards(
    snap.evidence,
    s.dismissedEvidence,
    { poolSize: selectPoolSize(s.workload), nowMs: snap.totals.lastT, running: s.running, stalledNow: snap.stalledNow, serviceHealthy, pauses: s.pauseSpans },
    s.writeAudit,
  );
}
