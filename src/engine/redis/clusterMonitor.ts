/**
 * Watches the real cluster during a run (one `CLUSTER NODES` every 250 ms
 * from a healthy node) and turns what changed into `topology` events: a node
 * the cluster marked failed (`nodeDown`), a replica that now serves slots
 * (`promoted`), a new member (`nodeJoined`). Also counts the map fetches the
 * servers served, from `INFO commandstats` once a second.
 */
import type { NodeId } from '../../core/domain/clusterMap';
import type { TelemetrySink } from '../../core/telemetry/events';
import { isFailed, isMaster, isMember, slotsOf, type NodeLine } from './clusterNodes';
import type { RedisCluster } from './redisCluster';

interface Seen {
  failed: boolean;
  master: boolean;
  slots: number;
}

/** the map-fetch commands counted in INFO commandstats */
export const MAP_COMMANDS = ['cluster|nodes', 'cluster|slots', 'cluster|shards'] as const;

/** `INFO commandstats` → calls of the map-fetch commands */
export function parseCommandStats(info: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)) {
    if ((MAP_COMMANDS as readonly string[]).includes(m[1] as string)) out[m[1] as string] = Number(m[2]);
  }
  return out;
}

export class ClusterMonitor {
  private readonly seen = new Map<NodeId, Seen>();
  private readonly lastStats = new Map<number, Record<string, number>>();
  readonly served: Record<string, number> = Object.fromEntries(MAP_COMMANDS.map((c) => [c, 0]));
  /** times (ms) at which a node was seen promoted */
  readonly promotions: { t: number; node: NodeId }[] = [];
  epoch = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private statsTimer: ReturnType<typeof setInterval> | null = null;
  private busy = false;

  constructor(
    private readonly cluster: RedisCluster,
    private readonly now: () => number,
    private readonly sink: () => TelemetrySink | undefined,
  ) {}

  async start(): Promise<void> {
    await this.poll(true);
    await this.pollStats();
    // what the servers served before the run (bootstrap, prefill) is not the run's
    for (const k of Object.keys(this.served)) this.served[k] = 0;
    this.timer = setInterval(() => void this.poll(false), 250);
    this.statsTimer = setInterval(() => void this.pollStats(), 1_000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    if (this.statsTimer) clearInterval(this.statsTimer);
    this.timer = this.statsTimer = null;
  }

  private async poll(initial: boolean): Promise<void> {
    if (this.busy) return;
    this.busy = true;
    try {
      const v = await this.cluster.view();
      if (v !== null) this.diff(v.lines, initial);
    } finally {
      this.busy = false;
    }
  }

  private diff(lines: readonly NodeLine[], initial: boolean): void {
    const t = this.now();
    const sink = this.sink();
    this.epoch = Math.max(this.epoch, ...lines.filter((n) => isMaster(n) && n.slots.length > 0).map((n) => n.configEpoch));
    for (const n of lines) {
      if (!isMember(n)) continue;
      const id = this.cluster.directory.idOf(n.port);
      const now: Seen = { failed: isFailed(n), master: isMaster(n), slots: slotsOf(n).length };
      const before = this.seen.get(id);
      this.seen.set(id, now);
      if (initial) {
        if (now.master) sink?.emit({ t, type: 'topology', epoch: this.epoch, change: 'initial', node: id, segments: slotsOf(n) });
        continue;
      }
      if (before === undefined) {
        sink?.emit({ t, type: 'topology', epoch: this.epoch, change: 'nodeJoined', node: id, segments: [] });
        continue;
      }
      if (now.failed && !before.failed) sink?.emit({ t, type: 'topology', epoch: this.epoch, change: 'nodeDown', node: id, segments: slotsOf(n) });
      if (!now.failed && now.master && now.slots > 0 && !before.master) {
        this.promotions.push({ t, node: id });
        sink?.emit({ t, type: 'topology', epoch: this.epoch, change: 'promoted', node: id, segments: slotsOf(n) });
      }
    }
  }

  private statsChain: Promise<void> = Promise.resolve();

  /** adds each node's commandstats growth since the last poll (a restarted node starts from 0); polls never overlap */
  pollStats(): Promise<void> {
    this.statsChain = this.statsChain.then(() => this.pollStatsNow());
    return this.statsChain;
  }

  private async pollStatsNow(): Promise<void> {
    for (const id of this.cluster.healthyIds()) {
      const port = this.cluster.directory.portOf(id) as number;
      let info: string;
      try {
        info = String(await this.cluster.call(id, ['INFO', 'commandstats'], 1_000));
      } catch {
        continue;
      }
      const cur = parseCommandStats(info);
      const last = this.lastStats.get(port) ?? {};
      for (const c of MAP_COMMANDS) {
        const a = cur[c] ?? 0;
        const b = last[c] ?? 0;
        this.served[c] = (this.served[c] ?? 0) + (a >= b ? a - b : a);
      }
      this.lastStats.set(port, cur);
    }
  }
}
