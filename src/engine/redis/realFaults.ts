/**
 * The faults a real Redis Cluster can be given, one entry per action (the
 * registry the CLI's validation and the engine's `fault()` share). Actions
 * without a real equivalent (`slow`, `lostAck`, `partition`, `garble`) are refused before anything
 * starts, with one line naming them and the allowed ones.
 */
import type { FaultCommand, FaultSpec } from '../../core/cluster/faults';
import type { NodeId } from '../../core/domain/clusterMap';
import { REDIS_SLOTS } from '../../core/domain/redisKeyspace';
import type { FaultAction, TelemetrySink, TopologyChange } from '../../core/telemetry/events';
import { isFailed, isMaster, isMember, slotsOf } from './clusterNodes';
import type { RedisCluster } from './redisCluster';
import { EngineInputError } from './redisServers';

/** What a fault may use while it runs. */
export interface FaultContext {
  readonly cluster: RedisCluster;
  now(): number;
  readonly sink: TelemetrySink;
  /** ms a migrating batch of slots is held open (ASK window): the scenario's migrationBaseMs */
  readonly migrationHoldMs: number;
  /** records a repair the fault awaited (failback promoted, migration done) */
  repaired(action: FaultAction, node: NodeId): void;
  /** a remark for the summary (e.g. a manual failover that had to be asked again) */
  note(text: string): void;
  /** schedules `fn` after `ms` of real time (cancelled when the run stops) */
  later(ms: number, fn: () => void): void;
}

export interface RealFault {
  readonly action: FaultAction;
  /** what it does on Redis, for the CLI help and docs */
  readonly help: string;
  apply(ctx: FaultContext, cmd: FaultCommand): Promise<void>;
}

function emitFault(ctx: FaultContext, action: FaultAction, node: NodeId, segments: readonly number[], detail?: string): void {
  ctx.sink.emit({ t: ctx.now(), type: 'fault', action, node, segments, ...(detail !== undefined ? { detail } : {}) });
}

function emitTopology(ctx: FaultContext, change: TopologyChange, node: NodeId, segments: readonly number[], epoch: number): void {
  ctx.sink.emit({ t: ctx.now(), type: 'topology', epoch, change, node, segments });
}

async function epochNow(ctx: FaultContext): Promise<number> {
  const v = await ctx.cluster.view();
  return v === null ? 0 : Math.max(0, ...v.lines.filter((n) => isMaster(n) && n.slots.length > 0).map((n) => n.configEpoch));
}

const failover: RealFault = {
  action: 'failover',
  help: 'kill -9 of the node (a master: its replica is promoted after cluster-node-timeout)',
  async apply(ctx, cmd) {
    const node = cmd.node as NodeId;
    const slots = await ctx.cluster.slotsOfNode(node).catch(() => []);
    emitFault(ctx, 'failover', node, slots, 'kill -9');
    ctx.cluster.kill(node);
  },
};

const hang: RealFault = {
  action: 'hang',
  help: 'SIGSTOP of the node (connections are accepted, nothing answers) until resume or durationMs',
  async apply(ctx, cmd) {
    const node = cmd.node as NodeId;
    const slots = await ctx.cluster.slotsOfNode(node).catch(() => []);
    emitFault(ctx, 'hang', node, slots, 'SIGSTOP');
    ctx.cluster.setPaused(node, true);
    if (cmd.durationMs !== undefined) ctx.later(cmd.durationMs, () => void resume.apply(ctx, { action: 'resume', node }));
  },
};

const resume: RealFault = {
  action: 'resume',
  help: 'SIGCONT of a hung node',
  async apply(ctx, cmd) {
    const node = cmd.node as NodeId;
    ctx.cluster.setPaused(node, false);
    emitFault(ctx, 'resume', node, [], 'SIGCONT');
  },
};

const failback: RealFault = {
  action: 'failback',
  help: 'restart the killed node (same port and nodes.conf), wait for its sync as a replica, CLUSTER FAILOVER on it',
  async apply(ctx, cmd) {
    const cluster = ctx.cluster;
    const node = cmd.node ?? cluster.directory.ids().find((id) => !cluster.running(id));
    if (node === undefined) {
      emitFault(ctx, 'failback', cmd.node ?? 0, [], 'no node is down: nothing to fail back');
      return;
    }
    if (cluster.running(node)) {
      emitFault(ctx, 'failback', node, [], 'the node is running: nothing to fail back');
      return;
    }
    emitFault(ctx, 'failback', node, [], 'restart, sync, CLUSTER FAILOVER');
    await cluster.failback(node, (phase) => {
      void epochNow(ctx).then(async (epoch) => {
        if (phase === 'restarted') emitTopology(ctx, 'catchUpStart', node, [], epoch);
        if (phase === 'synced') emitTopology(ctx, 'catchUpEnd', node, [], epoch);
        if (phase === 'promoted') emitTopology(ctx, 'reclaimed', node, await cluster.slotsOfNode(node).catch(() => []), epoch);
      });
    }, (why) => ctx.note(`failback node ${node}: ${why}`));
    ctx.repaired('failback', node);
  },
};

const scaleOut: RealFault = {
  action: 'scaleOut',
  help: 'start a node, CLUSTER MEET, migrate 1/(masters+1) of the slots to it (SETSLOT IMPORTING/MIGRATING, MIGRATE, SETSLOT NODE)',
  async apply(ctx, _cmd) {
    const cluster = ctx.cluster;
    const node = cluster.directory.nextId;
    const view = await cluster.view();
    if (view === null) throw new Error('scaleOut: no healthy node to read the cluster from');
    const masters = view.lines.filter((n) => isMember(n) && isMaster(n) && !isFailed(n) && n.slots.length > 0);
    const share = Math.floor(REDIS_SLOTS / (masters.length + 1));
    const perMaster = Math.floor(share / masters.length);
    const plan: { slot: number; from: NodeId }[] = [];
    for (const m of masters) {
      const from = cluster.directory.idOf(m.port);
      for (const slot of slotsOf(m).slice(-perMaster)) plan.push({ slot, from });
    }
    const segments = plan.map((p) => p.slot);
    emitFault(ctx, 'scaleOut', node, segments, `start node ${node}, migrate ${segments.length} slots`);
    await cluster.addNode(node);
    emitTopology(ctx, 'nodeJoined', node, [], await epochNow(ctx));
    emitTopology(ctx, 'migrationStart', node, segments, await epochNow(ctx));
    await cluster.migrate(plan, node, Math.max(1, Math.ceil(plan.length / 16)), ctx.migrationHoldMs, () => {});
    emitTopology(ctx, 'migrationEnd', node, segments, await epochNow(ctx));
    ctx.repaired('scaleOut', node);
  },
};

/** the registry: every action the Redis engine can carry out */
export const REAL_FAULTS: Readonly<Partial<Record<FaultAction, RealFault>>> = { failover, hang, resume, failback, scaleOut };

export const REAL_FAULT_ACTIONS = Object.keys(REAL_FAULTS) as FaultAction[];

/** throws an {@link EngineInputError} naming the faults of `faults` the engine cannot do */
export function checkRealFaults(faults: readonly Pick<FaultSpec, 'action'>[]): void {
  const bad = [...new Set(faults.map((f) => f.action).filter((a) => REAL_FAULTS[a] === undefined))];
  if (bad.length > 0) {
    throw new EngineInputError(`faults: ${bad.join(', ')} cannot be done on a real Redis Cluster (allowed with --engine redis: ${REAL_FAULT_ACTIONS.join(', ')})`);
  }
}
