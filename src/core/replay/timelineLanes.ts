/**
 * The renderer-facing view of a time window of the timeline: lanes (one per
 * operation, or one per virtual user) holding only the bars (attempts), gaps
 * (backoffs) and waits (refresh waits) that intersect the window.
 */
import type { OpKind } from '../domain/protocol';
import type { Outcome } from '../domain/status';
import { outcomeOf, SEG, STRIDE, WAIT_HOW, type OpRecord, type RefreshLookup, type WaitHow } from './opRecord';

export type LaneMode = 'op' | 'vu';

/** One attempt. */
export interface LaneBar {
  readonly t0: number;
  /** end, or the recording's end while in flight */
  readonly t1: number;
  /** null while in flight */
  readonly outcome: Outcome | null;
  readonly attempt: number;
  readonly node: number | null;
  readonly epoch: number;
  readonly op: number;
}

/** One backoff between attempts. */
export interface LaneGap {
  readonly t0: number;
  readonly t1: number;
  readonly delayMs: number;
  /** the status or error that caused it */
  readonly status: Outcome;
  readonly op: number;
}

/** One wait for a map refresh. */
export interface LaneWait {
  readonly t0: number;
  readonly t1: number;
  readonly refresh: number | null;
  /** the refresh lane's number for it (for a debounced request: the last successful refresh before it) */
  readonly refreshNo: number | null;
  /** rode a refresh another caller started */
  readonly coalesced: boolean;
  readonly how: WaitHow | null;
  readonly abandoned: boolean;
  readonly op: number;
}

/** The envelope of one operation on a lane. */
export interface LaneOp {
  readonly op: number;
  readonly kind: OpKind;
  readonly key: string;
  readonly t0: number;
  readonly t1: number;
  /** null while in flight */
  readonly outcome: Outcome | null;
}

export interface Lane {
  /** stable across windows: `op:<id>` or `vu:<n>` */
  readonly id: string;
  readonly label: string;
  readonly vu: number | null;
  readonly ops: readonly LaneOp[];
  readonly bars: readonly LaneBar[];
  readonly gaps: readonly LaneGap[];
  readonly waits: readonly LaneWait[];
}

export interface LanesResult {
  readonly lanes: readonly Lane[];
  /** lanes with something in the window (≥ lanes.length) */
  readonly totalLanes: number;
  /** one op in `sampling` is shown (1 = all) */
  readonly sampling: number;
}

/** fills a lane with what of `r` intersects [t0, t1]; open segments end at `now` */
function addOp(lane: { ops: LaneOp[]; bars: LaneBar[]; gaps: LaneGap[]; waits: LaneWait[] }, r: OpRecord, t0: number, t1: number, now: number, refreshes: RefreshLookup): void {
  const op = r.op;
  lane.ops.push({ op, kind: r.kind, key: r.key, t0: r.startMs, t1: r.endMs ?? now, outcome: r.outcome });
  const s = r.segs;
  for (let i = 0; i < s.length; i += STRIDE) {
    const a = s[i + 1] as number;
    const raw = s[i + 2] as number;
    const b = Number.isNaN(raw) ? now : raw;
    if (a > t1 || b < t0) continue;
    const kind = s[i];
    if (kind === SEG.attempt) {
      const node = s[i + 4] as number;
      lane.bars.push({ t0: a, t1: b, outcome: outcomeOf(s[i + 6] as number), attempt: s[i + 3] as number, node: node < 0 ? null : node, epoch: s[i + 5] as number, op });
    } else if (kind === SEG.backoff) {
      lane.gaps.push({ t0: a, t1: b, delayMs: s[i + 4] as number, status: outcomeOf(s[i + 5] as number) as Outcome, op });
    } else {
      const refresh = s[i + 3] as number;
      const how = WAIT_HOW[s[i + 4] as number] ?? null;
      const refreshNo = how === 'debounced' ? refreshes.lastOkBefore(a) : refresh < 0 ? null : refreshes.no(refresh);
      lane.waits.push({ t0: a, t1: b, refresh: refresh < 0 ? null : refresh, refreshNo, coalesced: how === 'coalesced', how, abandoned: s[i + 6] === 1, op });
    }
  }
}

/** groups the window's ops into lanes and keeps the first `maxLanes` */
export function laneView(mode: LaneMode, ops: readonly OpRecord[], t0: number, t1: number, maxLanes: number, now: number, sampling: number, refreshes: RefreshLookup): LanesResult {
  const groups = new Map<string, OpRecord[]>();
  for (const r of ops) {
    const id = mode === 'vu' && r.vu !== null ? `vu:${r.vu}` : `op:${r.op}`;
    const g = groups.get(id);
    if (g) g.push(r);
    else groups.set(id, [r]);
  }
  let ids = [...groups.keys()];
  if (mode === 'vu') {
    const rank = (id: string): number => Number(id.slice(3)) + (id.startsWith('op:') ? 2 ** 40 : 0);
    ids = ids.sort((x, y) => rank(x) - rank(y));
  }
  const lanes: Lane[] = [];
  for (const id of ids.slice(0, maxLanes)) {
    const members = groups.get(id) as OpRecord[];
    const lane = { ops: [] as LaneOp[], bars: [] as LaneBar[], gaps: [] as LaneGap[], waits: [] as LaneWait[] };
    for (const r of members) addOp(lane, r, t0, t1, now, refreshes);
    const first = members[0] as OpRecord;
    const isVu = id.startsWith('vu:');
    const label = isVu ? `vu ${first.vu}` : `op ${first.op} · ${first.kind} ${first.key}`;
    lanes.push({ id, label, vu: isVu ? first.vu : null, ...lane });
  }
  return { lanes, totalLanes: ids.length, sampling };
}
