/**
 * Invariant `replicatedSegmentsAvailable` (issue 11): a segment that has a
 * live, caught-up replica never stays unavailable longer than detection +
 * promotion. Checked against the cluster's truth (a `ControlState`: the
 * engine's, or the live control plane's) whenever a fault or topology event
 * says it changed. Two ways a segment is at risk, each allowed the same bound:
 * - *awaiting promotion*: its active owner does not serve (crashed, hung, or
 *   none) while a replica in its replica set is up — the detector must
 *   declare the owner dead and promote that replica;
 * - *replica missing*: its owner serves, one of its assigned members is up
 *   (it finished catching up) but is not in the replica set although the set
 *   has room — the next failure of the owner would be an outage although a
 *   caught-up member exists.
 */
import { NO_OWNER } from '../domain/clusterMap';
import type { ClusterConfig } from '../cluster/clusterConfig';
import type { ControlState, SegmentInfo } from '../cluster/controlState';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';

/** what the rule found: violating episodes and the first few, in words */
export interface AvailabilityReport {
  readonly violations: number;
  readonly examples: readonly string[];
}

/** ms of message delay and detector-tick slack the bound allows beyond the heartbeat model */
export const PROMOTION_SLACK_MS = 50;

/**
 * Detection + promotion: the detector declares a silent node dead between
 * failureTimeoutMs and that plus two heartbeat periods after its crash,
 * and promotes at once (plus message slack in the live playground).
 */
export function promotionBoundMs(c: ClusterConfig): number {
  return c.failureTimeoutMs + 2 * c.heartbeatMs + PROMOTION_SLACK_MS;
}

/** why a segment is at risk now (null: it is not) */
export function segmentRisk(state: ControlState, seg: SegmentInfo): 'awaitingPromotion' | 'replicaMissing' | null {
  const up = (n: number): boolean => {
    const info = state.nodes[n];
    return info !== undefined && info.status === 'up' && !info.declaredDead;
  };
  const ownerServes = seg.owner !== NO_OWNER && state.isServing(seg.owner);
  if (!ownerServes && seg.replicas.some(up)) return 'awaitingPromotion';
  if (seg.replicas.length >= state.config.replicas) return null;
  // a missing replica counts from a moment its owner could give it a copy (see AvailabilityWatch.observe)
  return seg.placement.some((n) => n !== seg.owner && up(n) && !seg.replicas.includes(n)) ? 'replicaMissing' : null;
}

/** whether the segment's owner serves (a missing replica could catch up from it) */
function ownerServes(state: ControlState, seg: SegmentInfo): boolean {
  return seg.owner !== NO_OWNER && state.isServing(seg.owner);
}

/** short of a replica only, and no owner serves to give one a copy */
function missingWithoutSource(state: ControlState, seg: SegmentInfo): boolean {
  return segmentRisk(state, seg) === 'replicaMissing' && !ownerServes(state, seg);
}

function episodeText(segment: number, why: string, since: number, until: number, ongoing = false): string {
  return `segment ${segment} (${why}) from ${Math.round(since)} ms for ${Math.round(until - since)} ms${ongoing ? ' so far' : ''}`;
}

/** Tracks, per segment, since when it has been at risk; an episode longer than the bound is a violation. */
export class AvailabilityWatch {
  /** segment → ms since it has been at risk (NaN: not at risk) */
  private since: number[] = [];
  private why: (string | null)[] = [];
  /** violating episodes */
  violations = 0;
  /** the first violations: "segment 3 (awaitingPromotion) from 12000 ms for 8000 ms" */
  readonly examples: string[] = [];
  /** every violating episode, in the order it closed (a replay's report at any cursor: {@link violationsAt}) */
  private readonly episodes: { readonly segment: number; readonly why: string; readonly since: number; readonly until: number }[] = [];

  constructor(private readonly state: ControlState) {}

  /** re-evaluates every segment at `t` (after a fault or topology change) */
  observe(t: number): void {
    const st = this.state;
    const bound = promotionBoundMs(st.config);
    for (let s = 0; s < st.segments.length; s++) {
      const seg = st.segments[s] as SegmentInfo;
      // a member missing from the set while no owner serves has no source to catch up from, and the segment
      // then has no up, caught-up member either: not at risk by this rule (an episode open till now ends)
      const risk = missingWithoutSource(st, seg) ? null : segmentRisk(st, seg);
      const since = this.since[s] ?? NaN;
      if (risk !== null) {
        if (Number.isNaN(since)) {
          this.since[s] = t;
          this.why[s] = risk;
        }
        continue;
      }
      if (!Number.isNaN(since)) {
        this.close(s, since, t, bound);
        this.since[s] = NaN;
      }
    }
  }

  /** closes the episodes still open at the end of the run */
  finish(t: number): void {
    this.observe(t);
    const bound = promotionBoundMs(this.state.config);
    this.since.forEach((since, s) => {
      if (!Number.isNaN(since)) this.close(s, since, t, bound);
    });
    this.since = [];
  }

  private close(s: number, since: number, t: number, bound: number): void {
    if (t - since <= bound + 1e-6) return;
    this.violations++;
    const why = this.why[s] ?? '?';
    if (this.examples.length < 5) this.examples.push(episodeText(s, why, since, t));
    this.episodes.push({ segment: s, why, since, until: t });
  }

  /**
   * The report of a run still going at `t` (the live playground): the
   * violations closed so far, then the episodes still open at `t` that have
   * already lasted longer than the bound ("… so far"), in segment order.
   * Nothing changes: the watch goes on.
   */
  reportAt(t: number): AvailabilityReport {
    const bound = promotionBoundMs(this.state.config);
    const open: string[] = [];
    this.since.forEach((since, s) => {
      if (!Number.isNaN(since) && t - since > bound + 1e-6) open.push(episodeText(s, this.why[s] ?? '?', since, t, true));
    });
    if (open.length === 0) return { violations: this.violations, examples: this.examples };
    return { violations: this.violations + open.length, examples: [...this.examples, ...open].slice(0, 5) };
  }

  /**
   * What a watch of the same run stopped at `t` (`finish(t)`) would report,
   * from the finished run's episodes: those closed by `t` in their order, then
   * those still open at `t`, closed there in segment order.
   */
  violationsAt(t: number): { readonly violations: number; readonly examples: readonly string[] } {
    if (t === Infinity) return { violations: this.violations, examples: this.examples };
    const bound = promotionBoundMs(this.state.config);
    const closed = this.episodes.filter((x) => x.until <= t);
    const open = this.episodes.filter((x) => x.since < t && x.until > t && t - x.since > bound + 1e-6).sort((a, b) => a.segment - b.segment);
    const found = [...closed.map((x) => episodeText(x.segment, x.why, x.since, x.until)), ...open.map((x) => episodeText(x.segment, x.why, x.since, t))];
    return { violations: found.length, examples: found.slice(0, 5) };
  }
}

/**
 * The rule watched from a shell's own event stream: the watch re-evaluates
 * at every fault and topology event, as the invariant checker does. The live
 * control worker tees its control plane's telemetry into one (only it holds
 * the cluster's truth) and sends {@link reportAt} with each cluster view; the
 * sink is made before the control plane, so it is handed the state after
 * (events before that are ignored: nothing can be at risk before the first).
 */
export class AvailabilitySink implements TelemetrySink {
  private watch: AvailabilityWatch | null = null;

  /** watches `state` from now on */
  watchCluster(state: ControlState): void {
    this.watch = new AvailabilityWatch(state);
  }

  emit(e: ZarisEvent): void {
    if (e.type === 'fault' || e.type === 'topology') this.watch?.observe(e.t);
  }

  /** {@link AvailabilityWatch.reportAt}; null before a cluster is watched */
  reportAt(t: number): AvailabilityReport | null {
    return this.watch?.reportAt(t) ?? null;
  }
}
