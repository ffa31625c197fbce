/**
 * The operations that were retried (made a second attempt), with their time
 * span, so the timeline can show "retried operations only" for any window
 * without scanning every lane. Their lanes are built from each op's story
 * (the recorder's own fold), so they match the all-ops view exactly.
 * Bounded: at most MAX_RETRIED ops are indexed (then `capped`).
 */
import type { Lane, OpStory } from '../../core/replay/opStory';

export const MAX_RETRIED = 200_000;

interface Entry {
  readonly op: number;
  readonly t0: number;
  /** when its second attempt started */
  readonly retriedAt: number;
  t1: number | null;
}

/** what the timeline's scene asks of the index */
export type RetriedQuery = Pick<RetriedIndex, 'opsIn'>;

export class RetriedIndex {
  private entries: Entry[] = [];
  private readonly byOp = new Map<number, Entry>();
  /** more ops were retried than the index keeps */
  capped = false;

  clear(): void {
    this.entries = [];
    this.byOp.clear();
    this.capped = false;
  }

  get size(): number {
    return this.entries.length;
  }

  /** op made its second attempt at `retriedAt`; it started at `startMs` */
  add(op: number, startMs: number, retriedAt = startMs): void {
    if (this.byOp.has(op)) return;
    if (this.entries.length >= MAX_RETRIED) {
      this.capped = true;
      return;
    }
    const e: Entry = { op, t0: startMs, retriedAt, t1: null };
    this.entries.push(e);
    this.byOp.set(op, e);
  }

  end(op: number, t: number): void {
    const e = this.byOp.get(op);
    if (e !== undefined) e.t1 = t;
  }

  /** ops retried by `asOf` that intersect [t0, t1], by start time */
  opsIn(t0: number, t1: number, asOf = Infinity): number[] {
    const hits = this.entries.filter((e) => e.retriedAt <= asOf && e.t0 <= t1 && (e.t1 === null || e.t1 > asOf || e.t1 >= t0));
    hits.sort((a, b) => a.t0 - b.t0 || a.op - b.op);
    return hits.map((e) => e.op);
  }
}

/** one op's story as a timeline lane (open steps end at `now`) */
export function laneOfStory(st: OpStory, now: number): Lane {
  const op = st.op;
  return {
    id: `op:${op}`,
    label: `op ${op} · ${st.kind} ${st.key}`,
    vu: null,
    ops: [{ op, kind: st.kind, key: st.key, t0: st.startMs, t1: st.endMs ?? now, outcome: st.outcome }],
    bars: st.attempts.map((a) => ({ t0: a.startMs, t1: a.endMs ?? now, outcome: a.outcome, attempt: a.attempt, node: a.node, epoch: a.epoch, op })),
    gaps: st.backoffs.map((b) => ({ t0: b.startMs, t1: b.endMs, delayMs: b.delayMs, status: b.outcome, op })),
    waits: st.refreshWaits.map((w) => ({ t0: w.requestMs, t1: w.resumedMs ?? now, refresh: w.refresh, refreshNo: w.refreshNo, coalesced: w.coalesced, how: w.how, abandoned: w.abandoned, op })),
  };
}
