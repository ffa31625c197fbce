/**
 * A scenario's fault schedule checked in time order against what each node
 * will be at that moment — up, down (failed over) or hung — so that a fault
 * the control plane would ignore (`cluster/controlPlane.ts`: crash, hang,
 * resume, failback, scale-out) is refused when the file is read, naming the
 * fault, instead of doing nothing in the run. The rules are the control
 * plane's own (`cluster/faultRules.ts`), applied to each node as the
 * schedule leaves it:
 *
 * - `failover` needs a node that is not down (a hung node may crash);
 * - `hang` needs a node that is neither down nor hung;
 * - `resume` needs a hung node (one whose `durationMs` has not run out);
 * - `failback` needs a node that is down, or hung and declared dead — which
 *   the detector cannot do before `failureTimeoutMs` of silence; without a
 *   node it takes the lowest-numbered node that is down or hung, as the
 *   control plane's `firstDown` does;
 * - nodes exist, and scale-outs stop at the cluster's cap.
 *
 * Whether a hung node is declared dead a little after `failureTimeoutMs`
 * depends on the heartbeat phase: such a failback is accepted, and if the
 * run ignores it, the summary lists it (`ignoredFaults`).
 */
import { MAX_CLUSTER_NODES } from '../cluster/clusterConfig';
import { failbackCandidate, nodeFaultActs, type NodeFault, type NodeFaultState } from '../cluster/faultRules';
import type { FaultSpec } from '../cluster/faults';

export interface ScheduleIssue {
  readonly path: readonly (string | number)[];
  readonly message: string;
}

interface NodeState {
  status: 'up' | 'down' | 'hung';
  /** atMs of the failover or hang that put it there */
  since: number;
  /** a hang with a duration ends at this time (Infinity: until resumed) */
  hungUntil: number;
}

export interface TimelineOptions {
  /** members at the start (a real engine counts its replica processes too) */
  readonly members: number;
  readonly durationMs: number;
  readonly failureTimeoutMs: number;
}

const ms = (t: number): string => `${t} ms`;

export function faultScheduleIssues(faults: readonly FaultSpec[], o: TimelineOptions): ScheduleIssue[] {
  const issues: ScheduleIssue[] = [];
  const nodes: NodeState[] = Array.from({ length: o.members }, () => ({ status: 'up', since: 0, hungUntil: Infinity }));
  // what the rules see of a node at `t`: a hang with a duration is over once its time has come (a fault
  // at that very instant still finds it hung: the schedule's faults fire before the hang's own end at one
  // instant), and a hung node may have been declared dead once failureTimeoutMs of silence have passed
  const viewAt = (n: NodeState, t: number): NodeFaultState => {
    if (n.status === 'hung' && t > n.hungUntil) n.status = 'up';
    return { status: n.status, declaredDead: n.status === 'hung' && t >= n.since + o.failureTimeoutMs };
  };
  const ordered = faults.map((f, i) => ({ f, i })).sort((a, b) => a.f.atMs - b.f.atMs || a.i - b.i);
  for (const { f, i } of ordered) {
    const at = f.atMs;
    const issue = (field: string | null, message: string) => issues.push({ path: field === null ? ['faults', i] : ['faults', i, field], message });
    if (at >= o.durationMs) issue('atMs', `atMs ${at} is not before the end of the run (durationMs ${o.durationMs}): a fault must start before it`);
    if (f.node !== undefined && f.node >= nodes.length) {
      issue('node', `node ${f.node} does not exist at ${ms(at)} (nodes 0..${nodes.length - 1})`);
      continue;
    }
    const n = f.node === undefined ? undefined : nodes[f.node];
    // the control plane's rule (`cluster/faultRules.ts`) on the node as the schedule leaves it at `at`
    const acts = (fault: NodeFault, m: NodeState): boolean => nodeFaultActs(fault, viewAt(m, at));
    switch (f.action) {
      case 'failover':
        if (n === undefined) break;
        if (!acts('failover', n)) issue('node', `node ${f.node} is already down at ${ms(at)} (failover at ${ms(n.since)}): fail it back first`);
        else Object.assign(n, { status: 'down', since: at, hungUntil: Infinity });
        break;
      case 'hang':
        if (n === undefined) break;
        if (acts('hang', n)) Object.assign(n, { status: 'hung', since: at, hungUntil: f.durationMs === undefined ? Infinity : at + f.durationMs });
        else if (n.status === 'down') issue('node', `node ${f.node} is down at ${ms(at)} (failover at ${ms(n.since)}): a hang needs a node that runs; fail it back first`);
        else issue('node', `node ${f.node} is already hung at ${ms(at)} (hang at ${ms(n.since)}${n.hungUntil < Infinity ? `, until ${ms(n.hungUntil)}` : ''}): resume it first`);
        break;
      case 'resume':
        if (n === undefined) break;
        if (acts('resume', n)) n.status = 'up';
        else issue('node', `node ${f.node} is ${n.status === 'down' ? `down at ${ms(at)} (failover at ${ms(n.since)})` : `not hung at ${ms(at)}${n.hungUntil < at ? ` (its hang ended at ${ms(n.hungUntil)})` : ''}`}: resume needs a hung node`);
        break;
      case 'failback': {
        const target = f.node ?? nodes.findIndex((m) => failbackCandidate(viewAt(m, at)));
        const m = nodes[target];
        if (m === undefined) {
          issue(null, `failback at ${ms(at)} names no node and no node is down or hung then: failback brings back a node that was failed over`);
          break;
        }
        const who = f.node === undefined ? `the first node down or hung, node ${target},` : `node ${target}`;
        if (acts('failback', m)) Object.assign(m, { status: 'up', since: at, hungUntil: Infinity });
        else if (m.status === 'up') issue('node', `node ${target} is up at ${ms(at)}: failback brings back a node that was failed over (or hung and declared dead)`);
        else {
          issue(f.node === undefined ? null : 'node', `${who} is hung at ${ms(at)} (since ${ms(m.since)}) and cannot be declared dead before ${ms(m.since + o.failureTimeoutMs)} (cluster.failureTimeoutMs ${o.failureTimeoutMs}): resume it, or fail it back after that`);
        }
        break;
      }
      case 'scaleOut':
        if (nodes.length >= MAX_CLUSTER_NODES) issue(null, `scaleOut at ${ms(at)} would make ${nodes.length + 1} nodes: a cluster has at most ${MAX_CLUSTER_NODES} (cluster.nodes plus scale-outs)`);
        else nodes.push({ status: 'up', since: at, hungUntil: Infinity });
        break;
      default:
        break;
    }
  }
  return issues;
}
