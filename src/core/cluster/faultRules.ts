/**
 * When a node fault acts on a node and when it does nothing — one rule,
 * used by the control plane (which ignores such a fault and says so in its
 * `fault` event) and by scenario validation (`sim/faultTimeline.ts`, which
 * refuses a schedule holding one, following each node through it).
 */
import type { NodeStatus } from './controlState';

/** what the rules read of a node */
export interface NodeFaultState {
  readonly status: NodeStatus;
  /** the detector has declared it dead (its segments were failed over) */
  readonly declaredDead: boolean;
}

/** the node faults these rules decide (the others act on any node) */
export type NodeFault = 'failover' | 'hang' | 'resume' | 'failback';

/**
 * Whether `fault` acts on a node in state `n`: a failover needs a node that is not down (a hung
 * one may crash), a hang one that runs (up, joining, recovering), a resume a hung one, a
 * failback one that is down or declared dead.
 */
export function nodeFaultActs(fault: NodeFault, n: NodeFaultState): boolean {
  switch (fault) {
    case 'failover':
      return n.status !== 'down';
    case 'hang':
      return n.status === 'up' || n.status === 'joining' || n.status === 'recovering';
    case 'resume':
      return n.status === 'hung';
    case 'failback':
      return n.status === 'down' || n.declaredDead;
  }
}

/** the nodes a failback without a node picks from, lowest id first: down, declared dead, or hung */
export function failbackCandidate(n: NodeFaultState): boolean {
  return n.status === 'down' || n.declaredDead || n.status === 'hung';
}
