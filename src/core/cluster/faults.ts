import { z } from 'zod';
import { FAULT_ACTIONS, type FaultAction } from '../telemetry/events';

/** One entry of a fault schedule (scenario field `faults`). */
export interface FaultSpec {
  /** ms since the run started */
  readonly atMs: number;
  readonly action: FaultAction;
  /** target node; optional for scaleOut (a new node) and failback (the first node that is down) */
  readonly node?: number;
  /** hang/slow/lostAck: how long it lasts, ms (hang without it lasts until resume/failback) */
  readonly durationMs?: number;
  /** slow: one-way latency multiplier */
  readonly factor?: number;
  /** lostAck: probability that an acknowledgement is dropped */
  readonly probability?: number;
}

/** A fault as the control plane takes it (no time: it acts now). */
export type FaultCommand = Omit<FaultSpec, 'atMs'>;

/** What each action does, for the docs, the CLI help and the playground's buttons. */
export const FAULT_HELP: Readonly<Record<FaultAction, string>> = {
  failover: 'crash a node: its worker stops; after failure detection its replicas are promoted',
  scaleOut: 'add a node: a rebalance migrates segments to it (writes answer Migrating meanwhile)',
  failback: 'restart a crashed node: it catches up, then ownership is handed back (OwnershipChanging)',
  hang: 'a node stops answering (timeouts instead of refusals) until resume or durationMs',
  resume: 'a hung node answers again (if it was declared dead, it rejoins like a failback)',
  slow: 'multiply one node link latency by factor for durationMs',
  lostAck: 'a node commits writes but drops the acknowledgement (probability, durationMs)',
};

export const faultSpecSchema = z
  .strictObject({
    atMs: z.number({ error: 'atMs must be a number of ms' }).min(0, 'atMs must be ≥ 0'),
    action: z.enum(FAULT_ACTIONS, { error: `action must be one of ${FAULT_ACTIONS.join(', ')}` }),
    node: z.number().int('node must be a whole number').min(0, 'node must be ≥ 0').optional(),
    durationMs: z.number().min(0, 'durationMs must be ≥ 0').optional(),
    factor: z.number().min(1, 'factor must be ≥ 1').max(10_000, 'factor must be ≤ 10000').optional(),
    probability: z.number().min(0, 'probability must be in [0, 1]').max(1, 'probability must be in [0, 1]').optional(),
  })
  .refine((f) => f.node !== undefined || f.action === 'scaleOut' || f.action === 'failback', {
    message: 'node is required for this action (only scaleOut and failback may omit it)',
    path: ['node'],
  });
