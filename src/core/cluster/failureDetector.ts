/**
 * Failure detection, one rule for both shells: a node is declared dead at
 * the first detector check at which its last heartbeat is at least
 * failureTimeoutMs + heartbeatMs old (the first beat it missed is
 * failureTimeoutMs old). The detector checks every heartbeatMs. So
 * detection takes between failureTimeoutMs and that plus two heartbeat
 * periods, depending on where the crash falls in the heartbeat cycle.
 *
 * The simulation feeds it the last heartbeat a node sent before it went
 * silent (beats fall at the node's phase + k × heartbeatMs while it serves)
 * and checks once, at the first check time the rule can say dead
 * (`ControlPlane`, modelled detection: no timer per heartbeat); the live
 * control plane feeds it the heartbeats that arrive from the node workers
 * and checks every heartbeatMs (`live/liveControl.ts`).
 */
import type { NodeId } from '../domain/clusterMap';

export interface DetectorConfig {
  readonly heartbeatMs: number;
  readonly failureTimeoutMs: number;
}

export class FailureDetector {
  /** node → time of its last heartbeat, ms */
  private readonly last: number[] = [];

  constructor(private readonly config: DetectorConfig) {}

  /** a heartbeat from `node` at `t` (also: a node that speaks again, e.g. after a restart) */
  beat(node: NodeId, t: number): void {
    this.last[node] = t;
  }

  /** ms since `node`'s last heartbeat (0 if it never sent one: not yet suspected) */
  silenceMs(node: NodeId, t: number): number {
    const l = this.last[node];
    return l === undefined ? 0 : t - l;
  }

  /** from this time on the rule says `node` is dead (unless it beats again) */
  deadFrom(node: NodeId): number {
    return (this.last[node] ?? 0) + this.config.failureTimeoutMs + this.config.heartbeatMs;
  }

  /** the first detector check at or after `t` (checks fall on multiples of heartbeatMs) */
  nextCheckAt(t: number): number {
    const hb = this.config.heartbeatMs;
    return Math.ceil(t / hb) * hb;
  }

  /** the verdict at a check at `t` */
  isDead(node: NodeId, t: number): boolean {
    const { heartbeatMs, failureTimeoutMs } = this.config;
    return this.silenceMs(node, t) >= failureTimeoutMs + heartbeatMs - 1e-9;
  }
}
