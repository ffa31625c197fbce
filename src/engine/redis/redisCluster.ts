/**
 * A real Redis Cluster of one run: `masters` masters with `replicasPerMaster`
 * replicas each, built by hand (ADDSLOTSRANGE, SET-CONFIG-EPOCH, MEET,
 * REPLICATE) so node ids follow the scenario: masters 0..m-1, then the
 * replicas of master 0, of master 1, … . Also the admin side of the faults:
 * reading the topology, migrating slots, waiting for a sync, failing back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NodeId } from '../../core/domain/clusterMap';
import { REDIS_SLOTS } from '../../core/domain/redisKeyspace';
import { isFailed, isMaster, isMember, parseClusterNodes, slotsOf, type NodeLine } from './clusterNodes';
import { RedisConnection, RequestDeadlines, type RespCommand } from './connection';
import { NodeDirectory } from './nodeDirectory';
import { EngineInputError, freePortPair, portFree, RedisServers, BUS_OFFSET } from './redisServers';
import { RespError, type RespValue } from './resp';

export interface ClusterShape {
  readonly masters: number;
  readonly replicasPerMaster: number;
  /** cluster-node-timeout, ms (the scenario's failure-detection time) */
  readonly nodeTimeoutMs: number;
  /** use ports base, base+1, … instead of free ones (each must be free, with its bus port) */
  readonly basePort?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

export class RedisCluster {
  readonly directory = new NodeDirectory();
  readonly servers: RedisServers;
  private readonly deadlines = new RequestDeadlines();
  private readonly admin = new Map<NodeId, RedisConnection>();
  private readonly usedPorts = new Set<number>();
  private nextBase: number | undefined;
  /** CLUSTER NODES calls the engine itself made (monitor, faults), to tell them from the client's */
  ownNodesCalls = 0;

  private constructor(readonly shape: ClusterShape) {
    this.servers = new RedisServers({ nodeTimeoutMs: shape.nodeTimeoutMs });
    this.nextBase = shape.basePort;
  }

  /** starts the servers, builds the cluster, resolves when every node sees cluster_state:ok */
  static async create(shape: ClusterShape): Promise<RedisCluster> {
    const c = new RedisCluster(shape);
    try {
      await c.build();
    } catch (e) {
      await c.stop();
      throw e;
    }
    return c;
  }

  private async port(): Promise<number> {
    if (this.nextBase !== undefined) {
      const p = this.nextBase++;
      if (p + BUS_OFFSET > 65_535) throw new EngineInputError(`--base-port ${this.shape.basePort}: port ${p} + 10000 (cluster bus) exceeds 65535`);
      if (!(await portFree(p))) throw new EngineInputError(`port ${p} is in use (--base-port ${this.shape.basePort}: ports from there on and their +10000 bus ports must be free)`);
      if (!(await portFree(p + BUS_OFFSET))) throw new EngineInputError(`port ${p + BUS_OFFSET} (cluster bus of ${p}) is in use (--base-port ${this.shape.basePort})`);
      return p;
    }
    const p = await freePortPair(this.usedPorts);
    this.usedPorts.add(p);
    this.usedPorts.add(p + BUS_OFFSET);
    return p;
  }

  /** starts node `id` on a new port */
  private async startNode(id: NodeId): Promise<number> {
    for (let tries = 1; ; tries++) {
      const port = await this.port();
      try {
        await this.servers.start(port);
      } catch (e) {
        // A free port we picked can be taken before redis binds it: pick another (a --base-port is the user's to fix).
        if (this.shape.basePort === undefined && tries < 5 && e instanceof EngineInputError && /in use/.test(e.message)) continue;
        throw e;
      }
      this.directory.add(id, port);
      return port;
    }
  }

  private async build(): Promise<void> {
    const { masters, replicasPerMaster } = this.shape;
    const total = masters * (1 + replicasPerMaster);
    for (let id = 0; id < total; id++) await this.startNode(id);
    const per = Math.floor(REDIS_SLOTS / masters);
    for (let m = 0; m < masters; m++) {
      const from = m * per;
      const to = m === masters - 1 ? REDIS_SLOTS - 1 : from + per - 1;
      await this.call(m, ['CLUSTER', 'ADDSLOTSRANGE', from, to]);
      await this.call(m, ['CLUSTER', 'SET-CONFIG-EPOCH', m + 1]);
    }
    const port0 = this.directory.portOf(0) as number;
    for (let id = 1; id < total; id++) await this.call(id, ['CLUSTER', 'MEET', '127.0.0.1', port0]);
    await this.until(`every node to know all ${total}`, 15_000, async () => {
      for (let id = 0; id < total; id++) {
        const lines = (await this.nodes(id)).filter((n) => isMember(n));
        if (lines.length < total) return false;
      }
      return true;
    });
    for (let m = 0; m < masters; m++) {
      const masterId = await this.call(m, ['CLUSTER', 'MYID']);
      for (let r = 0; r < replicasPerMaster; r++) await this.call(masters + m * replicasPerMaster + r, ['CLUSTER', 'REPLICATE', String(masterId)]);
    }
    await this.until('cluster_state:ok and every replica in sync', 20_000, async () => {
      for (let id = 0; id < total; id++) {
        if (!(await this.stateOk(id))) return false;
        if (id >= masters && !(await this.inSync(id))) return false;
      }
      return true;
    });
  }

  /** one admin command on node `id` (a RespError reply is thrown) */
  async call(id: NodeId, command: RespCommand, timeoutMs = 5_000): Promise<RespValue> {
    let conn = this.admin.get(id);
    if (conn === undefined || !conn.usable) {
      const port = this.directory.portOf(id);
      if (port === undefined) throw new Error(`node ${id} has no address`);
      conn = new RedisConnection('127.0.0.1', port, this.deadlines);
      this.admin.set(id, conn);
    }
    const v = await conn.call(command, timeoutMs);
    if (v instanceof RespError) throw new Error(`${command.slice(0, 3).join(' ')} on node ${id}: ${v.message}`);
    return v;
  }

  /** pipelined admin commands on node `id`; the first error reply is thrown */
  async pipeline(id: NodeId, commands: readonly RespCommand[], timeoutMs = 10_000): Promise<RespValue[]> {
    if (commands.length === 0) return [];
    await this.call(id, ['PING']);
    const conn = this.admin.get(id) as RedisConnection;
    const replies = await new Promise<readonly RespValue[]>((resolve, reject) =>
      conn.send(commands, timeoutMs, (err, r) => (err ? reject(new Error(`pipeline on node ${id}: ${err.code} (${err.detail ?? ''})`)) : resolve(r))),
    );
    const bad = replies.find((r) => r instanceof RespError);
    if (bad instanceof RespError) throw new Error(`${commands[0]?.slice(0, 3).join(' ')}… on node ${id}: ${bad.message}`);
    return [...replies];
  }

  /** node `id`'s view (CLUSTER NODES) */
  async nodes(id: NodeId, timeoutMs = 2_000): Promise<NodeLine[]> {
    this.ownNodesCalls++;
    return parseClusterNodes(String(await this.call(id, ['CLUSTER', 'NODES'], timeoutMs)));
  }

  async stateOk(id: NodeId): Promise<boolean> {
    return /cluster_state:ok/.test(String(await this.call(id, ['CLUSTER', 'INFO'])));
  }

  /** a replica whose link to its master is up and not syncing */
  async inSync(id: NodeId): Promise<boolean> {
    const info = String(await this.call(id, ['INFO', 'replication']));
    return /role:slave/.test(info) && /master_link_status:up/.test(info) && /master_sync_in_progress:0/.test(info);
  }

  async until(what: string, timeoutMs: number, check: () => Promise<boolean>, everyMs = 100): Promise<void> {
    const end = Date.now() + timeoutMs;
    let last: unknown = null;
    while (Date.now() < end) {
      try {
        if (await check()) return;
      } catch (e) {
        last = e;
      }
      await sleep(everyMs);
    }
    throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${last ? ` (${(last as Error).message})` : ''}`);
  }

  /** ids of the servers that run and answer (not killed, not SIGSTOP'ed) */
  healthyIds(): NodeId[] {
    return this.directory.ids().filter((id) => {
      const port = this.directory.portOf(id) as number;
      const s = this.servers.servers.get(port);
      return s !== undefined && s.child !== null && !s.stopped;
    });
  }

  /** the current view from some healthy node (prefers masters) */
  async view(): Promise<{ from: NodeId; lines: NodeLine[] } | null> {
    for (const id of this.healthyIds()) {
      try {
        return { from: id, lines: await this.nodes(id, 1_000) };
      } catch {
        /* try the next */
      }
    }
    return null;
  }

  /** the NodeLine of `id` in `lines` */
  lineOf(lines: readonly NodeLine[], id: NodeId): NodeLine | undefined {
    const port = this.directory.portOf(id);
    return lines.find((n) => n.port === port);
  }

  /** slots node `id` serves now, as some healthy node sees it */
  async slotsOfNode(id: NodeId): Promise<number[]> {
    const v = await this.view();
    const line = v ? this.lineOf(v.lines, id) : undefined;
    return line && isMaster(line) ? slotsOf(line) : [];
  }

  // ---- faults -------------------------------------------------------------

  kill(id: NodeId): void {
    this.servers.kill(this.directory.portOf(id) as number);
  }

  setPaused(id: NodeId, paused: boolean): void {
    this.servers.pause(this.directory.portOf(id) as number, paused);
  }

  running(id: NodeId): boolean {
    const port = this.directory.portOf(id);
    return port !== undefined && this.servers.running(port);
  }

  /**
   * restarts killed node `id` (same port, same nodes.conf: same Redis id),
   * waits until it is a replica in sync, then `CLUSTER FAILOVER` on it and
   * waits until it serves slots again
   */
  async failback(id: NodeId, onPhase: (phase: 'restarted' | 'synced' | 'promoted') => void = () => {}, onRetry: (why: string) => void = () => {}): Promise<void> {
    const port = this.directory.portOf(id) as number;
    this.admin.get(id)?.close();
    this.admin.delete(id);
    await this.servers.start(port);
    onPhase('restarted');
    await this.until(`node ${id} to sync as a replica`, 30_000, () => this.inSync(id), 100);
    // Its master takes MFSTART only from a node it knows as its own replica, not failed: wait for the gossip.
    await this.until(`node ${id}'s master to see it as its replica`, 15_000, async () => {
      const mine = (await this.nodes(id)).find((n) => n.flags.has('myself'));
      const masterLine = mine?.masterId ? (await this.nodes(id)).find((n) => n.redisId === mine.masterId) : undefined;
      if (mine === undefined || masterLine === undefined) return false;
      const master = this.directory.idOf(masterLine.port);
      const seen = (await this.nodes(master)).find((n) => n.redisId === mine.redisId);
      return seen !== undefined && seen.masterId === masterLine.redisId && !isFailed(seen) && !seen.flags.has('fail?');
    });
    onPhase('synced');
    // A manual failover gives up after 5 s if the master does not pause in time (a loaded machine):
    // ask again, up to three times, before reporting the node's own log.
    for (let round = 1; ; round++) {
      await this.call(id, ['CLUSTER', 'FAILOVER']);
      try {
        await this.until(`node ${id} to serve slots again`, 6_000, async () => {
          const lines = await this.nodes(id);
          const me = lines.find((n) => n.flags.has('myself'));
          return me !== undefined && isMaster(me) && me.slots.length > 0;
        });
        break;
      } catch (e) {
        if (round >= 3) throw new Error(`${(e as Error).message}; node log: ${this.logTail(port, 6)}`, { cause: e });
        onRetry(`CLUSTER FAILOVER round ${round} did not complete in 6 s; node log: ${this.logTail(port, 4)}`);
      }
    }
    onPhase('promoted');
  }

  /** the last lines of a server's log (for error messages) */
  logTail(port: number, lines: number): string {
    try {
      return readFileSync(join(this.servers.dir, String(port), 'redis.log'), 'utf8').trim().split('\n').slice(-lines).map((l) => l.replace(/^\d+:[A-Z] /, '')).join(' | ');
    } catch {
      return '(no log)';
    }
  }

  /** starts node `id`, meets it, waits until every healthy node knows it */
  async addNode(id: NodeId): Promise<void> {
    await this.startNode(id);
    const anchor = this.healthyIds().find((n) => n !== id) as NodeId;
    await this.call(id, ['CLUSTER', 'MEET', '127.0.0.1', this.directory.portOf(anchor) as number]);
    await this.until(`node ${id} to join`, 15_000, async () => {
      for (const n of this.healthyIds()) {
        const lines = await this.nodes(n);
        const line = this.lineOf(lines, id);
        if (line === undefined || !isMember(line)) return false;
      }
      // it takes migrated keys only once it sees every slot covered (else MIGRATE answers CLUSTERDOWN)
      return this.stateOk(id);
    });
  }

  /**
   * moves `slots` from their owners to node `to`, `batch` slots at a time:
   * IMPORTING / MIGRATING, MIGRATE of their keys, a hold of `holdMs` (the
   * migration's duration: ASK for keys already moved), then SETSLOT NODE on
   * every master (MOVED from then on)
   */
  async migrate(slots: readonly { slot: number; from: NodeId }[], to: NodeId, batch: number, holdMs: number, onBatch: (moved: number[]) => void): Promise<void> {
    const toId = String(await this.call(to, ['CLUSTER', 'MYID']));
    const toPort = this.directory.portOf(to) as number;
    const ids = new Map<NodeId, string>();
    const idOf = async (n: NodeId): Promise<string> => {
      let v = ids.get(n);
      if (v === undefined) ids.set(n, (v = String(await this.call(n, ['CLUSTER', 'MYID']))));
      return v;
    };
    for (let i = 0; i < slots.length; i += batch) {
      const part = slots.slice(i, i + batch);
      const sources = [...new Set(part.map((p) => p.from))];
      // One pipeline per node and step: thousands of slots move in seconds, not minutes.
      await this.pipeline(to, await Promise.all(part.map(async ({ slot, from }) => ['CLUSTER', 'SETSLOT', slot, 'IMPORTING', await idOf(from)])));
      for (const from of sources) {
        const mine = part.filter((p) => p.from === from);
        await this.pipeline(from, mine.map(({ slot }) => ['CLUSTER', 'SETSLOT', slot, 'MIGRATING', toId]));
        for (;;) {
          const keyLists = (await this.pipeline(from, mine.map(({ slot }) => ['CLUSTER', 'GETKEYSINSLOT', slot, 1000]))) as string[][];
          const withKeys = keyLists.filter((keys) => keys.length > 0);
          if (withKeys.length === 0) break;
          // MIGRATE … KEYS takes the keys of one slot at a time in cluster mode
          await this.pipeline(from, withKeys.map((keys) => ['MIGRATE', '127.0.0.1', toPort, '', 0, 5_000, 'REPLACE', 'KEYS', ...keys]), 20_000);
        }
      }
      await sleep(holdMs);
      const masters = await this.masterIds();
      await this.pipeline(to, part.map(({ slot }) => ['CLUSTER', 'SETSLOT', slot, 'NODE', toId]));
      for (const from of sources) await this.pipeline(from, part.filter((p) => p.from === from).map(({ slot }) => ['CLUSTER', 'SETSLOT', slot, 'NODE', toId]));
      for (const m of masters) {
        if (m === to || sources.includes(m)) continue;
        await this.pipeline(m, part.map(({ slot }) => ['CLUSTER', 'SETSLOT', slot, 'NODE', toId])).catch(() => undefined);
      }
      onBatch(part.map((p) => p.slot));
    }
  }

  /** healthy masters serving slots */
  async masterIds(): Promise<NodeId[]> {
    const v = await this.view();
    if (v === null) return [];
    return v.lines.filter((n) => isMember(n) && isMaster(n) && !isFailed(n)).map((n) => this.directory.idOf(n.port)).filter((id) => this.healthyIds().includes(id));
  }

  /** kills every server, closes the admin links, removes the data dir and the watchdog */
  async stop(): Promise<void> {
    for (const c of this.admin.values()) c.close();
    this.admin.clear();
    this.deadlines.clear();
    await this.servers.stopAll();
  }
}
