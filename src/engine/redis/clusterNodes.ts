/**
 * `CLUSTER NODES` → what the engine and the Zaris client need: who serves
 * which slots, who replicates whom, who is failed, and the config epochs.
 * The Zaris map is built from this one reply because it is the only one of
 * SLOTS / SHARDS / NODES that carries each node's config epoch (the map's
 * epoch must rise with every ownership change, as the client's refresher
 * only adopts a map whose epoch is not older than its own).
 */
import { NO_OWNER, type ClusterMap, type NodeId } from '../../core/domain/clusterMap';
import { REDIS_SLOTS } from '../../core/domain/redisKeyspace';

export interface NodeLine {
  /** Redis's 40-hex node id */
  readonly redisId: string;
  readonly host: string;
  readonly port: number;
  readonly flags: ReadonlySet<string>;
  /** the master's id for a replica, else null */
  readonly masterId: string | null;
  readonly configEpoch: number;
  readonly connected: boolean;
  /** served slot ranges, inclusive */
  readonly slots: readonly (readonly [number, number])[];
  /** slots this node is migrating away → target node id */
  readonly migrating: ReadonlyMap<number, string>;
  /** slots this node is importing ← source node id */
  readonly importing: ReadonlyMap<number, string>;
}

export function parseClusterNodes(text: string): NodeLine[] {
  const out: NodeLine[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    const f = line.split(' ');
    if (f.length < 8) throw new Error(`CLUSTER NODES: malformed line "${line.slice(0, 80)}"`);
    const addr = (f[1] as string).split(',')[0] as string;
    const at = addr.indexOf('@');
    const hostPort = at >= 0 ? addr.slice(0, at) : addr;
    const colon = hostPort.lastIndexOf(':');
    const slots: [number, number][] = [];
    const migrating = new Map<number, string>();
    const importing = new Map<number, string>();
    for (const s of f.slice(8)) {
      if (s.startsWith('[')) {
        const m = /^\[(\d+)-([<>])-([0-9a-f]+)\]$/.exec(s);
        if (m) (m[2] === '>' ? migrating : importing).set(Number(m[1]), m[3] as string);
        continue;
      }
      const dash = s.indexOf('-');
      const a = Number(dash < 0 ? s : s.slice(0, dash));
      const b = Number(dash < 0 ? s : s.slice(dash + 1));
      if (Number.isInteger(a) && Number.isInteger(b)) slots.push([a, b]);
    }
    out.push({
      redisId: f[0] as string,
      host: hostPort.slice(0, colon),
      port: Number(hostPort.slice(colon + 1)),
      flags: new Set((f[2] as string).split(',')),
      masterId: f[3] === '-' ? null : (f[3] as string),
      configEpoch: Number(f[6]),
      connected: f[7] === 'connected',
      slots,
      migrating,
      importing,
    });
  }
  return out;
}

/** a node that is in the cluster for real (not a handshake or a forgotten address) */
export function isMember(n: NodeLine): boolean {
  return !n.flags.has('handshake') && !n.flags.has('noaddr') && n.port > 0;
}

export function isMaster(n: NodeLine): boolean {
  return n.flags.has('master');
}

/** failed as the cluster agreed (`fail`), not merely suspected (`fail?`) */
export function isFailed(n: NodeLine): boolean {
  return n.flags.has('fail');
}

/**
 * One node's view as a Zaris {@link ClusterMap}: segment = slot, owner =
 * the master serving it, replicas = that master's replicas not marked
 * failed, epoch = the highest config epoch among slot-serving masters.
 */
export function toClusterMap(lines: readonly NodeLine[], idOfPort: (port: number) => NodeId): ClusterMap {
  const owners = new Array<NodeId>(REDIS_SLOTS).fill(NO_OWNER);
  const replicasOfMaster = new Map<string, NodeId[]>();
  const nodes: NodeId[] = [];
  let epoch = 0;
  for (const n of lines) {
    if (!isMember(n)) continue;
    nodes.push(idOfPort(n.port));
    if (n.masterId !== null && !isFailed(n)) {
      const list = replicasOfMaster.get(n.masterId) ?? [];
      list.push(idOfPort(n.port));
      replicasOfMaster.set(n.masterId, list);
    }
  }
  const replicaLists: (readonly NodeId[])[] = new Array<readonly NodeId[]>(REDIS_SLOTS).fill([]);
  for (const n of lines) {
    if (!isMember(n) || !isMaster(n) || n.slots.length === 0) continue;
    epoch = Math.max(epoch, n.configEpoch);
    const id = idOfPort(n.port);
    const reps = replicasOfMaster.get(n.redisId) ?? [];
    for (const [a, b] of n.slots) {
      for (let s = a; s <= b; s++) {
        owners[s] = id;
        replicaLists[s] = reps;
      }
    }
  }
  nodes.sort((a, b) => a - b);
  return { epoch, owners, replicas: replicaLists, nodes };
}

/** slot ranges → the list of slots (for fault/topology events) */
export function slotsOf(n: NodeLine): number[] {
  const out: number[] = [];
  for (const [a, b] of n.slots) for (let s = a; s <= b; s++) out.push(s);
  return out;
}
