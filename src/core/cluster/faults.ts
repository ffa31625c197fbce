/**
 * The fault registry: one plain object per fault kind — its label, what it
 * does, which fields it takes (validation), what the playground's button
 * sends, and how a control plane carries it out. Scenarios (validation),
 * the CLI's help, the dashboard's buttons and both shells use it; adding a
 * fault is adding one entry (and its colour in `ui/theme/statusColors.ts`).
 */
import { z } from 'zod';
import { FAULT_ACTIONS, type FaultAction } from '../telemetry/events';
import type { ControlPlane } from './controlPlane';
import { PARTITION_DIRECTIONS, type LinkFaultCommand, type PartitionDirection } from './linkFaults';

/** One entry of a fault schedule (scenario field `faults`). */
export interface FaultSpec {
  /** ms since the run started */
  readonly atMs: number;
  readonly action: FaultAction;
  /** target node; optional for scaleOut (a new node) and failback (the first node that is down) */
  readonly node?: number;
  /** hang/slow/lostAck/partition/garble: how long it lasts, ms (hang without it lasts until resume/failback) */
  readonly durationMs?: number;
  /** slow: one-way latency multiplier */
  readonly factor?: number;
  /** lostAck / garble: probability per reply */
  readonly probability?: number;
  /** partition: 'in' loses requests to the node, 'out' loses its replies */
  readonly direction?: PartitionDirection;
}

/** A fault as the control plane takes it (no time: it acts now). */
export type FaultCommand = Omit<FaultSpec, 'atMs'>;

/** the optional fields a fault kind may take */
export type FaultParam = 'durationMs' | 'factor' | 'probability' | 'direction';

export interface FaultKind {
  readonly id: FaultAction;
  /** button and legend label */
  readonly label: string;
  /** what it does (docs, CLI help, button tooltips) */
  readonly help: string;
  /** whether the fault names a node */
  readonly node: 'required' | 'optional' | 'none';
  /** the optional fields it takes; any other is refused */
  readonly params: readonly FaultParam[];
  /** what the playground's button sends besides the node */
  readonly button: Partial<FaultCommand>;
  /** when it can act: on a serving node, when some node is down / hung, or while the cluster has room for a node */
  readonly needs: 'serving' | 'someDown' | 'someHung' | 'room';
  /** the link effect on the node's client link (link faults only): what both shells apply */
  readonly link?: (f: FaultCommand) => LinkFaultCommand;
  /** carries the fault out now */
  readonly apply: (cp: ControlPlane, f: FaultCommand) => void;
}

/** defaults of the timed link faults when a scenario omits them */
export const LINK_DEFAULTS = { slowFactor: 10, slowMs: 5_000, lostAckProbability: 1, lostAckMs: 2_000, partitionMs: 5_000, garbleProbability: 1, garbleMs: 2_000 } as const;

const linkFault = (id: FaultAction, label: string, help: string, params: readonly FaultParam[], button: Partial<FaultCommand>, link: (f: FaultCommand) => LinkFaultCommand): FaultKind => ({
  id,
  label,
  help,
  node: 'required',
  params,
  button,
  needs: 'serving',
  link,
  apply: (cp, f) => cp.linkFault(f.node as number, id, link(f)),
});

export const FAULTS: Readonly<Record<FaultAction, FaultKind>> = {
  failover: {
    id: 'failover',
    label: 'Failover',
    help: 'crash a node: its worker stops; after failure detection its replicas are promoted',
    node: 'required',
    params: [],
    button: {},
    needs: 'serving',
    apply: (cp, f) => cp.crash(f.node as number),
  },
  scaleOut: {
    id: 'scaleOut',
    label: 'Scale out',
    help: 'add a node: a rebalance migrates segments to it (writes answer Migrating meanwhile)',
    node: 'none',
    params: [],
    button: {},
    needs: 'room',
    apply: (cp) => cp.scaleOut(),
  },
  failback: {
    id: 'failback',
    label: 'Failback',
    help: 'restart a crashed node: it catches up, then ownership is handed back (OwnershipChanging)',
    node: 'optional',
    params: [],
    button: {},
    needs: 'someDown',
    apply: (cp, f) => cp.failback(f.node ?? cp.firstDown()),
  },
  hang: {
    id: 'hang',
    label: 'Hang',
    help: 'a node stops answering (timeouts instead of refusals) until resume or durationMs',
    node: 'required',
    params: ['durationMs'],
    button: {},
    needs: 'serving',
    apply: (cp, f) => cp.hang(f.node as number, f.durationMs),
  },
  resume: {
    id: 'resume',
    label: 'Resume',
    help: 'a hung node answers again (if it was declared dead, it rejoins like a failback)',
    node: 'required',
    params: [],
    button: {},
    needs: 'someHung',
    apply: (cp, f) => cp.resume(f.node as number),
  },
  slow: linkFault('slow', 'Slow link', 'multiply one node link latency by factor for durationMs', ['factor', 'durationMs'], { factor: 20, durationMs: 10_000 }, (f) => ({
    kind: 'slow',
    factor: f.factor ?? LINK_DEFAULTS.slowFactor,
    durationMs: f.durationMs ?? LINK_DEFAULTS.slowMs,
  })),
  lostAck: linkFault('lostAck', 'Lost ack', 'a node commits writes but drops the acknowledgement (probability, durationMs)', ['probability', 'durationMs'], { probability: 0.5, durationMs: 10_000 }, (f) => ({
    kind: 'lostAck',
    probability: f.probability ?? LINK_DEFAULTS.lostAckProbability,
    durationMs: f.durationMs ?? LINK_DEFAULTS.lostAckMs,
  })),
  partition: linkFault(
    'partition',
    'Partition',
    'one-way partition of the client link for durationMs: "in" loses requests to the node, "out" loses its replies (it still serves them; the cluster still hears its heartbeats, so nothing fails over)',
    ['direction', 'durationMs'],
    { direction: 'out', durationMs: 5_000 },
    (f) => ({ kind: 'partition', direction: f.direction ?? 'out', durationMs: f.durationMs ?? LINK_DEFAULTS.partitionMs }),
  ),
  garble: linkFault('garble', 'Garbled reply', 'replies of a node arrive garbled (a Transport error at the client) with probability, for durationMs', ['probability', 'durationMs'], { probability: 0.5, durationMs: 5_000 }, (f) => ({
    kind: 'garble',
    probability: f.probability ?? LINK_DEFAULTS.garbleProbability,
    durationMs: f.durationMs ?? LINK_DEFAULTS.garbleMs,
  })),
};

/** the registry as a list, in FAULT_ACTIONS order (buttons, help) */
export const FAULT_KINDS: readonly FaultKind[] = FAULT_ACTIONS.map((a) => FAULTS[a]);

/** What each action does, for the docs, the CLI help and the playground's buttons. */
/** the fault changes a node's status or the membership (a link fault, which has a link effect, changes neither) */
export function changesNodes(action: FaultAction): boolean {
  return FAULTS[action].link === undefined;
}

export const FAULT_HELP: Readonly<Record<FaultAction, string>> = Object.fromEntries(FAULT_KINDS.map((k) => [k.id, k.help])) as Record<FaultAction, string>;

export const faultSpecSchema = z
  .strictObject({
    atMs: z.number({ error: 'atMs must be a number of ms' }).min(0, 'atMs must be ≥ 0'),
    action: z.enum(FAULT_ACTIONS, { error: `action must be one of ${FAULT_ACTIONS.join(', ')}` }),
    node: z.number({ error: 'node must be a whole number' }).int('node must be a whole number').min(0, 'node must be ≥ 0').optional(),
    durationMs: z.number({ error: 'durationMs must be a number of ms' }).positive('durationMs must be > 0 ms: a fault of 0 ms ends as it starts (omit it for the default)').max(3_600_000, 'durationMs must be ≤ 3600000').optional(),
    // a factor of 1 slows nothing and a probability of 0 loses nothing: such a fault would do nothing
    factor: z.number({ error: 'factor must be a number' }).gt(1, 'factor must be > 1 (1 would not slow the link) and ≤ 10000').max(10_000, 'factor must be > 1 and ≤ 10000').optional(),
    probability: z.number({ error: 'probability must be a number' }).gt(0, 'probability must be in (0, 1] (0 would do nothing)').max(1, 'probability must be in (0, 1]').optional(),
    direction: z.enum(PARTITION_DIRECTIONS as [PartitionDirection, ...PartitionDirection[]], { error: `direction must be one of ${PARTITION_DIRECTIONS.join(', ')}` }).optional(),
  })
  .superRefine((f, ctx) => {
    const kind = FAULTS[f.action];
    if (f.node === undefined && kind.node === 'required') {
      const omit = FAULT_KINDS.filter((k) => k.node !== 'required').map((k) => k.id);
      ctx.addIssue({ code: 'custom', path: ['node'], message: `node is required for ${f.action} (only ${omit.join(' and ')} may omit it)` });
    }
    if (f.node !== undefined && kind.node === 'none') {
      ctx.addIssue({ code: 'custom', path: ['node'], message: `${f.action} takes no node (it adds a new one)` });
    }
    for (const p of ['durationMs', 'factor', 'probability', 'direction'] as const) {
      if (f[p] !== undefined && !kind.params.includes(p)) {
        ctx.addIssue({ code: 'custom', path: [p], message: `${f.action} takes no ${p} (its fields: ${['atMs', 'action', ...(kind.node === 'none' ? [] : ['node']), ...kind.params].join(', ')})` });
      }
    }
  });
