/** Named pure selectors for the event log and the invariant monitor. */
import type { Outcome } from '../../core/domain/status';
import { FINAL_DATA_ON_PAUSE, type InvariantName, type InvariantReport } from '../../core/sim/invariants';
import type { EventType, ZarisEvent } from '../../core/telemetry/events';
import type { LoggedEvent } from './snapshot';

/** what the event log shows */
export interface LogFilter {
  /** op id (exact), or '' for all */
  readonly op: string;
  readonly type: EventType | 'all';
  readonly outcome: Outcome | 'all';
}
export const NO_LOG_FILTER: LogFilter = { op: '', type: 'all', outcome: 'all' };

/** the status or error an event carries, if any */
export function outcomeOf(e: ZarisEvent): Outcome | null {
  if (e.type === 'attempt.end' || e.type === 'op.end' || e.type === 'backoff') return e.status ?? e.error ?? null;
  if (e.type === 'refresh.request') return e.cause === 'connect' ? null : e.cause;
  return null;
}

/** the operation an event belongs to, if any */
export function opOf(e: ZarisEvent): number | null {
  return 'op' in e && typeof e.op === 'number' ? e.op : null;
}

/** events matching the filter, newest first */
export function selectFilteredEvents(events: readonly LoggedEvent[], filter: LogFilter): LoggedEvent[] {
  const op = filter.op.trim() === '' ? null : Number(filter.op.trim());
  const out: LoggedEvent[] = [];
  for (let i = events.length - 1; i >= 0; i--) {
    const le = events[i] as LoggedEvent;
    const e = le.event;
    if (filter.type !== 'all' && e.type !== filter.type) continue;
    if (op !== null && opOf(e) !== op) continue;
    if (filter.outcome !== 'all' && outcomeOf(e) !== filter.outcome) continue;
    out.push(le);
  }
  return out;
}

/** one line of details for an event (its fields beyond t, type, op and outcome); `keyspace`: what a segment number names (a hash slot on the real engine) */
export function describeEvent(e: ZarisEvent, keyspace: 'segment' | 'hash slot' = 'segment'): string {
  const seg = keyspace === 'hash slot' ? 'slot' : 'seg';
  switch (e.type) {
    case 'op.start':
      return `${e.kind} ${e.key} ${seg} ${e.segment}${e.cond ? ` ${JSON.stringify(e.cond)}` : ''} budget ${e.budget ?? '?'}${e.deadline != null ? ` deadline ${e.deadline.toFixed(0)} ms` : ''}`;
    case 'attempt.start':
      return `#${e.attempt} → node ${e.node ?? '—'} (map epoch ${e.epoch})`;
    case 'attempt.end':
      return `#${e.attempt} node ${e.node ?? '—'} ${e.latencyMs.toFixed(1)} ms`;
    case 'attempt.ask':
      return `ASK: node ${e.node} → node ${e.to} (${seg} ${e.segment})`;
    case 'backoff':
      return `after #${e.attempt}: sleep ${e.delayMs.toFixed(0)} ms`;
    case 'refresh.request':
      return `cause ${e.cause}`;
    case 'refresh.coalesced':
      return `rode refresh ${e.refresh}`;
    case 'refresh.start':
      return `refresh ${e.refresh}`;
    case 'refresh.end':
      return `refresh ${e.refresh} ${e.ok ? 'ok' : 'FAILED'} epoch ${e.epochBefore} → ${e.epochAfter} from node ${e.node ?? '—'} (${e.fetches} fetch${e.fetches === 1 ? '' : 'es'})`;
    case 'refresh.debounced':
      return `refresh ${e.refresh}: ${e.sinceLastMs.toFixed(0)} ms since the last one`;
    case 'refresh.waitAbandoned':
      return `stopped waiting for refresh ${e.refresh} after ${e.waitedMs.toFixed(0)} ms`;
    case 'op.end':
      return `${e.attempts} attempt${e.attempts === 1 ? '' : 's'}, ${e.latencyMs.toFixed(1)} ms, ${e.reason}${e.version !== undefined ? ` v${e.version}` : ''}`;
    case 'fault':
      return `${e.action} node ${e.node}, ${e.segments.length} segment(s)${e.detail ? ` — ${e.detail}` : ''}`;
    case 'topology':
      // a node declared dead that speaks again rejoins with a `reclaimed` change: it takes back
      // what it last owned and nobody else took over — often nothing; the epoch bump is its return
      if (e.change === 'reclaimed' && e.segments.length === 0) return `node ${e.node} rejoined after being declared dead (nothing to reclaim: no segment it last owned was left without an owner), epoch ${e.epoch}`;
      return `${e.change} node ${e.node}, epoch ${e.epoch}, ${e.segments.length} segment(s)`;
    case 'arrival.rejected':
      return `request pool full (${e.inFlight} in flight): arrival turned away`;
  }
}

export const INVARIANT_LABELS: Readonly<Record<InvariantName, string>> = {
  noLostAckedWrites: 'No lost acknowledged writes',
  noRetriedRealAnswers: 'Conflict / NotFound never retried',
  attemptBudgetKept: 'Attempt budget kept',
  deadlineKept: 'Deadline kept',
  replicatedSegmentsAvailable: 'Replicated segments stay available',
};

/** an invariant's name as every panel writes it ("Attempt budget kept"); a name this build does not know stays as it is */
export function invariantLabel(name: string): string {
  return Object.hasOwn(INVARIANT_LABELS, name) ? INVARIANT_LABELS[name as InvariantName] : name;
}

export type Verdict = 'pending' | 'ok' | 'expected' | 'violated';

export interface InvariantRow {
  readonly name: InvariantName;
  readonly label: string;
  readonly verdict: Verdict;
  readonly violations: number;
  readonly detail: string;
  readonly examples: readonly number[];
}

/** a replay's note where a live session says the final data is checked on Pause: a recording has no data to check */
export const RECORDING_FINAL_DATA = "a recording holds the events, not the cluster's data: Live checks the data on Pause, npm run sim at the run's end";

/** invariant rows as a replay states them: the live session's "checked on Pause" note becomes the recording's */
export function inReplayWords(rows: readonly InvariantRow[]): InvariantRow[] {
  return rows.map((r) => (r.detail.includes(FINAL_DATA_ON_PAUSE) ? { ...r, detail: r.detail.replace(FINAL_DATA_ON_PAUSE, RECORDING_FINAL_DATA) } : r));
}

/** verdict per invariant and overall (expected = violated, but explained by an enabled bug toggle) */
export function selectInvariantRows(report: InvariantReport | null): { verdict: Verdict; rows: InvariantRow[] } {
  if (report === null) return { verdict: 'pending', rows: [] };
  const rows = report.checks.map((c): InvariantRow => ({
    name: c.name,
    label: INVARIANT_LABELS[c.name],
    verdict: c.ok ? 'ok' : c.expected ? 'expected' : 'violated',
    violations: c.violations,
    detail: c.detail,
    examples: c.examples,
  }));
  const verdict: Verdict = rows.some((r) => r.verdict === 'violated') ? 'violated' : rows.some((r) => r.verdict === 'expected') ? 'expected' : 'ok';
  return { verdict, rows };
}
