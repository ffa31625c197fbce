/**
 * What a node answers (SPEC §3), decision by decision, on a hand-built
 * cluster: 3 nodes, 8 segments, 1 replica. Segment s is owned by s % 3 with
 * replica (s + 1) % 3, so for segment 0: owner 0, replica 1, other node 2.
 */
import { describe, expect, it } from 'vitest';
import { NO_OWNER } from '../domain/clusterMap';
import type { DataRequest, OpKind, WriteCondition } from '../domain/protocol';
import { KvStatus } from '../domain/status';
import { DEFAULT_CLUSTER_CONFIG, type ClusterConfig } from './clusterConfig';
import type { NodeStatus, SegmentPhase } from './controlState';
import { ownershipFailureStatus, routeAt } from './dataPath';
import { leaveReplicaSet } from './replicaSet';
import { SimCluster, type ApplyListener } from '../sim/simCluster';

const SEG = 0;
const OWNER = 0;
const REPLICA = 1;
const OTHER = 2;

/** the simulation's nodes route by the control plane's record and hold their own stores (`sim/simCluster.ts`) */
function cluster(overrides: Partial<ClusterConfig> = {}): SimCluster {
  return new SimCluster({ ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 8, replicas: 1, ...overrides });
}

function serveData(st: SimCluster, node: number, r: DataRequest, onApply?: ApplyListener) {
  return st.serve(node, r, onApply);
}

let nextOp = 1;
function req(kind: OpKind, key = 'k', extra: { value?: string; cond?: WriteCondition; segment?: number } = {}): DataRequest {
  return { type: 'data', kind, key, segment: extra.segment ?? SEG, epoch: 1, op: nextOp++, value: extra.value ?? (kind === 'put' ? 'v' : undefined), cond: extra.cond };
}

/** a write that must succeed; returns its version */
function write(state: SimCluster, kind: 'put' | 'delete', key = 'k', cond?: WriteCondition): number {
  const r = serveData(state, OWNER, req(kind, key, { cond }));
  expect(r.status).toBe(KvStatus.Ok);
  return r.version as number;
}

describe('initial layout', () => {
  it('owner s % nodes, replicas the next nodes, all stable, epoch 1', () => {
    const st = cluster();
    expect(st.control.segments.map((s) => s.owner)).toEqual([0, 1, 2, 0, 1, 2, 0, 1]);
    expect(st.control.segments.map((s) => s.replicas)).toEqual([[1], [2], [0], [1], [2], [0], [1], [2]]);
    expect(st.control.segments.every((s) => s.phase === 'stable' && s.preferred === s.owner)).toBe(true);
    expect(st.control.epoch).toBe(1);
    const two = cluster({ replicas: 2 });
    expect(two.control.segment(0).replicas).toEqual([1, 2]);
  });
});

describe('routing decision per phase × node role × kind (SPEC §3 table)', () => {
  type Row = [phase: SegmentPhase | 'noOwner', role: 'owner' | 'replica' | 'other', kind: OpKind, expected: 'serve' | KvStatus];
  const rows: Row[] = [
    // stable: the owner serves everything; a replica serves reads and rejects writes; anyone else: Moved
    ['stable', 'owner', 'get', 'serve'],
    ['stable', 'owner', 'put', 'serve'],
    ['stable', 'owner', 'delete', 'serve'],
    ['stable', 'replica', 'get', 'serve'],
    ['stable', 'replica', 'put', KvStatus.ReplicaWriteRejected],
    ['stable', 'replica', 'delete', KvStatus.ReplicaWriteRejected],
    ['stable', 'other', 'get', KvStatus.Moved],
    ['stable', 'other', 'put', KvStatus.Moved],
    ['stable', 'other', 'delete', KvStatus.Moved],
    // migrating: the owner holds writes back (Migrating) but serves reads
    ['migrating', 'owner', 'get', 'serve'],
    ['migrating', 'owner', 'put', KvStatus.Migrating],
    ['migrating', 'owner', 'delete', KvStatus.Migrating],
    ['migrating', 'replica', 'get', 'serve'],
    ['migrating', 'replica', 'put', KvStatus.ReplicaWriteRejected],
    ['migrating', 'other', 'get', KvStatus.Moved],
    ['migrating', 'other', 'put', KvStatus.Moved],
    // transitioning: the (new) owner serves; every node that is not the active owner answers OwnershipChanging
    ['transitioning', 'owner', 'get', 'serve'],
    ['transitioning', 'owner', 'put', 'serve'],
    ['transitioning', 'owner', 'delete', 'serve'],
    ['transitioning', 'replica', 'get', KvStatus.OwnershipChanging],
    ['transitioning', 'replica', 'put', KvStatus.OwnershipChanging],
    ['transitioning', 'other', 'get', KvStatus.OwnershipChanging],
    ['transitioning', 'other', 'put', KvStatus.OwnershipChanging],
    ['transitioning', 'other', 'delete', KvStatus.OwnershipChanging],
    // no owner at all: Unavailable, whoever is asked
    ['noOwner', 'owner', 'get', KvStatus.Unavailable],
    ['noOwner', 'owner', 'put', KvStatus.Unavailable],
    ['noOwner', 'replica', 'get', KvStatus.Unavailable],
    ['noOwner', 'replica', 'put', KvStatus.Unavailable],
    ['noOwner', 'other', 'get', KvStatus.Unavailable],
    ['noOwner', 'other', 'delete', KvStatus.Unavailable],
  ];
  const nodeOf = { owner: OWNER, replica: REPLICA, other: OTHER } as const;

  it.each(rows)('%s segment, %s node, %s → %s', (phase, role, kind, expected) => {
    const st = cluster();
    write(st, 'put', 'k'); // so that reads and deletes have something to serve
    const seg = st.control.segment(SEG);
    if (phase === 'noOwner') {
      seg.lastOwner = seg.owner;
      seg.owner = NO_OWNER;
    } else seg.phase = phase;
    const node = nodeOf[role];
    expect(routeAt(st.control, node, false, req(kind))).toBe(expected);
    const reply = serveData(st, node, req(kind, 'k', { value: 'w' }));
    if (expected === 'serve') expect(reply.status).toBe(KvStatus.Ok);
    else expect(reply).toEqual({ status: expected });
  });

  it('a fenced owner (a handoff away from it is in progress) acknowledges nothing: OwnershipChanging for reads and writes', () => {
    const st = cluster();
    for (const kind of ['get', 'put', 'delete'] as const) {
      expect(routeAt(st.control, OWNER, true, req(kind))).toBe(KvStatus.OwnershipChanging);
      expect(routeAt(st.control, OWNER, false, req(kind))).toBe('serve');
    }
    st.node(OWNER).fenced[SEG] = 1;
    expect(serveData(st, OWNER, req('put'))).toEqual({ status: KvStatus.OwnershipChanging });
    expect(st.store(OWNER, SEG).size).toBe(0);
    // the fence is the owner's own: a replica still serves reads
    expect(routeAt(st.control, REPLICA, st.node(REPLICA).fenced[SEG] === 1, req('get'))).toBe('serve');
  });

  it('the non-owner branch is one decision: transitioning → OwnershipChanging, settled → Moved', () => {
    const st = cluster();
    const table: [SegmentPhase, KvStatus][] = [
      ['stable', KvStatus.Moved],
      ['migrating', KvStatus.Moved],
      ['transitioning', KvStatus.OwnershipChanging],
    ];
    for (const [phase, status] of table) {
      st.control.segment(SEG).phase = phase;
      expect(ownershipFailureStatus(st.control, SEG)).toBe(status);
    }
  });

  it('a rejected request changes nothing (no write, no apply, no epoch change)', () => {
    const st = cluster();
    const applied: number[] = [];
    for (const node of [REPLICA, OTHER]) serveData(st, node, req('put'), (op) => applied.push(op));
    st.control.segment(SEG).phase = 'migrating';
    serveData(st, OWNER, req('put'), (op) => applied.push(op));
    expect(applied).toEqual([]);
    for (const n of [0, 1, 2]) expect(st.store(n, SEG).size).toBe(0);
    expect(st.control.epoch).toBe(1);
  });
});

describe('values and versions', () => {
  it('get of a key never written → NotFound; after a put → Ok with value and version', () => {
    const st = cluster();
    expect(serveData(st, OWNER, req('get'))).toEqual({ status: KvStatus.NotFound, version: 0 });
    serveData(st, OWNER, req('put', 'k', { value: 'hello' }));
    expect(serveData(st, OWNER, req('get'))).toEqual({ status: KvStatus.Ok, value: 'hello', version: 1 });
  });

  it('the version increases by exactly one per write, deletes included (a tombstone keeps the version)', () => {
    const st = cluster();
    const versions = [write(st, 'put'), write(st, 'put'), write(st, 'delete'), write(st, 'put'), write(st, 'delete'), write(st, 'put')];
    expect(versions).toEqual([1, 2, 3, 4, 5, 6]);
    // other keys have their own versions
    expect(write(st, 'put', 'other')).toBe(1);
  });

  it('a deleted key reads NotFound (with the tombstone version) and deleting it again is NotFound', () => {
    const st = cluster();
    write(st, 'put');
    write(st, 'delete');
    expect(serveData(st, OWNER, req('get'))).toEqual({ status: KvStatus.NotFound, version: 2 });
    expect(serveData(st, OWNER, req('delete'))).toEqual({ status: KvStatus.NotFound, version: 2 });
  });

  it('delete of a key never written → NotFound, nothing stored', () => {
    const st = cluster();
    expect(serveData(st, OWNER, req('delete')).status).toBe(KvStatus.NotFound);
    expect(st.store(OWNER, SEG).size).toBe(0);
  });

  type CondRow = [name: string, setup: ('put' | 'delete')[], kind: 'put' | 'delete', cond: WriteCondition, expected: KvStatus, versionAfter: number];
  const condRows: CondRow[] = [
    ['put ifAbsent on an absent key', [], 'put', { ifAbsent: true }, KvStatus.Ok, 1],
    ['put ifAbsent on a present key', ['put'], 'put', { ifAbsent: true }, KvStatus.Conflict, 1],
    ['put ifAbsent on a deleted key (tombstone = absent)', ['put', 'delete'], 'put', { ifAbsent: true }, KvStatus.Ok, 3],
    ['put ifMatchVersion = current', ['put', 'put'], 'put', { ifMatchVersion: 2 }, KvStatus.Ok, 3],
    ['put ifMatchVersion older', ['put', 'put'], 'put', { ifMatchVersion: 1 }, KvStatus.Conflict, 2],
    ['put ifMatchVersion newer', ['put'], 'put', { ifMatchVersion: 7 }, KvStatus.Conflict, 1],
    ['put ifMatchVersion on an absent key', [], 'put', { ifMatchVersion: 0 }, KvStatus.Conflict, 0],
    ['put ifMatchVersion on a deleted key', ['put', 'delete'], 'put', { ifMatchVersion: 2 }, KvStatus.Conflict, 2],
    ['delete ifMatchVersion = current', ['put'], 'delete', { ifMatchVersion: 1 }, KvStatus.Ok, 2],
    ['delete ifMatchVersion stale', ['put', 'put'], 'delete', { ifMatchVersion: 1 }, KvStatus.Conflict, 2],
    ['delete ifMatchVersion on an absent key', [], 'delete', { ifMatchVersion: 0 }, KvStatus.NotFound, 0],
    // SPEC §2: "a failed condition answers Conflict" — also when the write is a delete
    ['delete ifAbsent on a present key', ['put'], 'delete', { ifAbsent: true }, KvStatus.Conflict, 1],
  ];

  it.each(condRows.map((r): CondRow => [`${r[0]} → ${r[4]}`, r[1], r[2], r[3], r[4], r[5]]))('%s', (_name, setup, kind, cond, expected, versionAfter) => {
    const st = cluster();
    for (const k of setup) write(st, k);
    const before = st.store(OWNER, SEG).get('k');
    const applied: number[] = [];
    const reply = serveData(st, OWNER, req(kind, 'k', { cond, value: 'new' }), (_op, _key, v) => applied.push(v));
    expect(reply.status).toBe(expected);
    expect(st.store(OWNER, SEG).get('k')?.version ?? 0).toBe(versionAfter);
    if (expected === KvStatus.Ok) {
      expect(reply.version).toBe(versionAfter);
      expect(applied).toEqual([versionAfter]);
    } else {
      // a failed condition or a missing key changes nothing and applies nothing
      expect(st.store(OWNER, SEG).get('k')).toBe(before);
      expect(applied).toEqual([]);
      expect(reply.version).toBe(versionAfter);
    }
  });

  it('reports every applied write to the listener with op, key and version', () => {
    const st = cluster();
    const seen: [number, string, number][] = [];
    const onApply = (op: number, key: string, v: number) => seen.push([op, key, v]);
    const r1 = req('put', 'a');
    const r2 = req('put', 'a');
    const r3 = req('delete', 'a');
    const r4 = req('get', 'a');
    for (const r of [r1, r2, r3, r4]) serveData(st, OWNER, r, onApply);
    expect(seen).toEqual([
      [r1.op, 'a', 1],
      [r2.op, 'a', 2],
      [r3.op, 'a', 3],
    ]);
  });
});

describe('synchronous replication', () => {
  it('after an Ok write every in-sync replica holds the same entry (put and delete), other nodes nothing', () => {
    const st = cluster({ replicas: 2, nodes: 4 });
    // segment 0: owner 0, replicas 1 and 2; node 3 holds nothing
    serveData(st, OWNER, req('put', 'k', { value: 'x' }));
    for (const r of [1, 2]) expect(st.store(r, SEG).get('k')).toEqual({ value: 'x', version: 1 });
    expect(st.store(3, SEG).size).toBe(0);
    serveData(st, OWNER, req('delete', 'k'));
    for (const r of [0, 1, 2]) expect(st.store(r, SEG).get('k')).toEqual({ value: null, version: 2 });
    expect(st.control.epoch).toBe(1);
    // a read at a replica sees the acknowledged write
    serveData(st, OWNER, req('put', 'k', { value: 'y' }));
    expect(serveData(st, 1, req('get'))).toEqual({ status: KvStatus.Ok, value: 'y', version: 3 });
  });

  it('a write to one segment touches only that segment', () => {
    const st = cluster();
    serveData(st, OWNER, req('put', 'k'));
    for (let s = 1; s < 8; s++) for (const n of [0, 1, 2]) expect(st.store(n, s).size).toBe(0);
  });

  it.each<[NodeStatus]>([['down'], ['hung']])('a %s replica misses the write and leaves the replica set; ownership and so the epoch are unchanged', (status) => {
    const st = cluster({ replicas: 2, nodes: 4 });
    st.control.node(2).status = status;
    const before = st.control.map();
    const reply = serveData(st, OWNER, req('put', 'k', { value: 'x' }));
    expect(reply.status).toBe(KvStatus.Ok); // the write is acknowledged with the remaining replica
    expect(st.store(2, SEG).has('k')).toBe(false);
    expect(st.store(1, SEG).get('k')).toEqual({ value: 'x', version: 1 });
    if (status === 'hung') {
      // nothing tells the owner a hung replica is gone: the write waits for its ack (the network holds the
      // acknowledgement for REPLICATION_TIMEOUT_MS), and only the timeout takes it out of the set
      expect(st.unacked).toEqual([2]);
      expect(st.control.segment(SEG).replicas).toEqual([1, 2]);
      leaveReplicaSet(st.control, SEG, (r) => r === 2); // what the control plane's replicaLost does first
    } else expect(st.unacked).toEqual([]); // a crash resets the connection: out at once
    expect(st.control.segment(SEG).replicas).toEqual([1]);
    // an ISR-like shrink: the epoch counts ownership changes (the crash's one
    // topology change comes at detection), but the served map shows it
    expect(st.control.epoch).toBe(1);
    expect(st.control.map()).not.toBe(before);
    expect(st.control.map().replicas[SEG]).toEqual([1]);
    expect(st.control.map().epoch).toBe(1);
    serveData(st, OWNER, req('put', 'k'));
    expect(st.control.epoch).toBe(1);
  });

  it.each<[NodeStatus]>([['joining'], ['recovering']])('a %s replica is serving and receives the write', (status) => {
    const st = cluster();
    st.control.node(REPLICA).status = status;
    serveData(st, OWNER, req('put', 'k', { value: 'x' }));
    expect(st.store(REPLICA, SEG).get('k')).toEqual({ value: 'x', version: 1 });
    expect(st.control.segment(SEG).replicas).toEqual([REPLICA]);
    expect(st.control.epoch).toBe(1);
  });

  it('a rejected write never shrinks the replica set', () => {
    const st = cluster();
    st.control.node(REPLICA).status = 'down';
    write(st, 'put');
    st.control.segment(SEG).replicas = [REPLICA];
    const epoch = st.control.epoch;
    expect(serveData(st, OWNER, req('put', 'k', { cond: { ifAbsent: true } })).status).toBe(KvStatus.Conflict);
    expect(st.control.segment(SEG).replicas).toEqual([REPLICA]);
    expect(st.control.epoch).toBe(epoch);
  });
});

describe('ownership moves are seen by the very next request', () => {
  it('after the owner changes, the old owner (now replica) rejects writes, the new one serves them', () => {
    const st = cluster();
    write(st, 'put');
    const seg = st.control.segment(SEG);
    seg.owner = REPLICA;
    seg.replicas = [OWNER];
    st.control.bump();
    expect(serveData(st, OWNER, req('put')).status).toBe(KvStatus.ReplicaWriteRejected);
    expect(serveData(st, OWNER, req('get')).status).toBe(KvStatus.Ok);
    expect(serveData(st, REPLICA, req('put'))).toEqual({ status: KvStatus.Ok, version: 2 });
    expect(serveData(st, OTHER, req('get')).status).toBe(KvStatus.Moved);
    // and the new replica (old owner) got the write synchronously
    expect(st.store(OWNER, SEG).get('k')?.version).toBe(2);
  });
});
