/** The text of the timeline's hover card for what is under the pointer (pure). */
import type { END_REASON_STYLE } from '../theme/statusColors';
import type { Hit } from './scene';
import { formatDuration, formatTick } from './viewport';

const at = (t: number): string => formatTick(t, 1);

/** title + detail lines for a hit */
export function describeHit(h: Hit): { readonly title: string; readonly lines: readonly string[] } {
  switch (h.kind) {
    case 'bar': {
      const b = h.lane.bars[h.index];
      if (b === undefined) break;
      return {
        title: `op ${b.op} · attempt ${b.attempt}`,
        lines: [`${b.outcome ?? 'in flight'} after ${formatDuration(b.t1 - b.t0)}`, `node ${b.node ?? '— (no owner in map)'} · map epoch ${b.epoch}`, `${at(b.t0)} → ${at(b.t1)}`],
      };
    }
    case 'gap': {
      const g = h.lane.gaps[h.index];
      if (g === undefined) break;
      return { title: `op ${g.op} · backoff ${formatDuration(g.delayMs)}`, lines: [`after ${g.status}`, `${at(g.t0)} → ${at(g.t1)}`] };
    }
    case 'wait': {
      const w = h.lane.waits[h.index];
      if (w === undefined) break;
      const no = w.refreshNo === null ? 'a refresh' : `refresh #${w.refreshNo}`;
      const how = w.how === 'started' ? `started ${no}` : w.how === 'coalesced' ? `rode ${no} (coalesced)` : w.how === 'debounced' ? `debounced: the map was just fetched${w.refreshNo === null ? '' : ` by ${no}`}` : 'asked for a refresh';
      return {
        title: `op ${w.op} · waits for a map refresh`,
        lines: [how, `waited ${formatDuration(w.t1 - w.t0)}${w.abandoned ? ' — gave up (wait budget spent)' : ''}`, `${at(w.t0)} → ${at(w.t1)}`],
      };
    }
    case 'op': {
      const o = h.lane.ops.find((x) => x.op === h.op);
      if (o === undefined) break;
      return { title: `op ${o.op} · ${o.kind} ${o.key}`, lines: [`${o.outcome ?? 'in flight'} · ${formatDuration(o.t1 - o.t0)}`, 'click for its whole story'] };
    }
    case 'refresh': {
      const s = h.span;
      return {
        title: `map refresh #${s.no}`,
        lines: [
          s.open ? 'in flight' : s.ok ? `fetched from node ${s.node ?? '?'} · epoch ${s.epochBefore} → ${s.epochAfter}` : 'failed: no map fetched',
          `${s.callers} caller${s.callers === 1 ? '' : 's'} rode it${s.startedBy !== null ? ` (started by op ${s.startedBy})` : ''}`,
          `${formatDuration(s.t1 - s.t0)} · ${at(s.t0)} → ${at(s.t1)}`,
        ],
      };
    }
    case 'band': {
      const b = h.band;
      return {
        title: `${b.action} node ${b.node}`,
        lines: [
          `${b.segments} segment${b.segments === 1 ? '' : 's'} put in motion at ${at(b.t0)}`,
          b.settledBy ? `last change: ${b.settledBy} at ${at(b.t1)} (epoch ${b.epoch})` : 'no topology change yet',
        ],
      };
    }
  }
  return { title: '', lines: [] };
}

/** one sentence on why an operation ended */
export function endReasonText(reason: keyof typeof END_REASON_STYLE | null, attempts: number, budget: number | null): string {
  switch (reason) {
    case null:
      return 'did not finish before the run ended';
    case 'success':
      return `answered Ok on attempt ${attempts}`;
    case 'realAnswer':
      return `a real answer (NotFound / Conflict) on attempt ${attempts} — never retried`;
    case 'attemptsExhausted':
      return `gave up after ${attempts} attempt${attempts === 1 ? '' : 's'}${budget !== null ? ` (budget ${budget})` : ''}`;
    case 'deadline':
      return `the deadline passed after ${attempts} attempt${attempts === 1 ? '' : 's'}`;
    case 'nonRetryable':
      return 'a non-retryable error, handed back at once';
    case 'waitBudget':
      return 'stopped waiting for a map refresh (wait budget spent)';
  }
}
