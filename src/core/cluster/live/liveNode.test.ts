/**
 * A live node as a pure state machine: inputs with the time in, messages,
 * answers and timers out (`liveNode.ts`). 3 nodes, 6 segments, 1 replica:
 * node 0 owns segment 0, node 1 is its replica.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLUSTER_CONFIG } from '../clusterConfig';
import type { NodeView } from '../nodeCore';
import { REPLICATION_TIMEOUT_MS } from '../replicaSet';
import { LiveNode, type NodeOutput } from './liveNode';

const CONFIG = { ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 6, replicas: 1 };
const VIEW: NodeView = {
  epoch: 1,
  owners: [0, 1, 2, 0, 1, 2],
  replicas: [[1], [2], [0], [1], [2], [0]],
  phases: ['stable', 'stable', 'stable', 'stable', 'stable', 'stable'],
  nodes: [0, 1, 2].map((id) => ({ id, status: 'up' as const, declaredDead: false })),
};

function owner0(): LiveNode {
  const n = new LiveNode(0, CONFIG);
  n.fromControl({ kind: 'replay', incarnation: 1, segments: [] }, 0);
  n.fromControl({ kind: 'view', view: VIEW }, 0);
  n.ready();
  return n;
}

const put = { type: 'data', kind: 'put', key: 'k', segment: 0, value: 'v', epoch: 1, op: 1 } as const;
const replies = (out: readonly NodeOutput[]) => out.filter((o) => o.kind === 'reply');

describe('LiveNode (pure)', () => {
  it('a write is answered only after the replica acked and the disk said persisted', () => {
    const n = owner0();
    n.request(put, 7, 10);
    const out = n.ready();
    // the apply notice (for the audit) first: the write is applied here before it is acknowledged
    expect(out.map((o) => o.kind)).toEqual(['applied', 'timer', 'peer', 'timer']);
    expect(out[0]).toEqual({ kind: 'applied', op: 1 });
    const rep = out[2];
    expect(rep).toMatchObject({ kind: 'peer', peer: 1, msg: { kind: 'rep', segment: 0, key: 'k', entry: { value: 'v', version: 1 } } });
    expect(out[3]).toMatchObject({ afterMs: REPLICATION_TIMEOUT_MS });
    const id = rep?.kind === 'peer' && rep.msg.kind === 'rep' ? rep.msg.id : -1;
    n.fromPeer(1, { kind: 'repAck', id }, 12);
    const acked = n.ready();
    expect(acked).toEqual([{ kind: 'control', msg: { kind: 'persist', incarnation: 1, seq: 1, writes: [{ segment: 0, key: 'k', entry: { value: 'v', version: 1 } }] } }]);
    n.fromControl({ kind: 'persisted', seq: 1 }, 13);
    expect(n.ready()).toEqual([{ kind: 'reply', replyTo: 7, reply: { status: 'Ok', version: 1 } }]);
  });

  it('hung after a write committed but before its reply went out: it sends no reply, even once the ack and the disk come (the headless rule)', () => {
    const n = owner0();
    n.request(put, 7, 10);
    const rep = n.ready().find((o) => o.kind === 'peer');
    const id = rep?.kind === 'peer' && rep.msg.kind === 'rep' ? rep.msg.id : -1;
    n.fromControl({ kind: 'hang', on: true }, 11);
    n.fromPeer(1, { kind: 'repAck', id }, 12);
    n.ready();
    n.fromControl({ kind: 'persisted', seq: 1 }, 13);
    expect(replies(n.ready())).toEqual([]);
    // resumed: the held reply stays unsent (the client has timed out)
    n.fromControl({ kind: 'hang', on: false }, 14);
    expect(replies(n.ready())).toEqual([]);
  });

  it('a replica whose ack does not come in time is reported lost, and the write is acknowledged without it', () => {
    const n = owner0();
    n.request(put, 7, 10);
    const timeout = n.ready().find((o) => o.kind === 'timer' && o.timer.kind === 'replicationTimeout');
    if (timeout?.kind !== 'timer') throw new Error('no replication timeout');
    n.fire(timeout.timer, 10 + REPLICATION_TIMEOUT_MS);
    expect(n.ready().map((o) => (o.kind === 'control' ? o.msg.kind : o.kind))).toEqual(['replicaLost', 'persist']);
    n.fromControl({ kind: 'persisted', seq: 1 }, 1_020);
    expect(replies(n.ready())).toHaveLength(1);
    n.fire(timeout.timer, 2_000); // a second firing changes nothing
    expect(n.ready()).toEqual([]);
  });

  it('with no link to the replica the loss is reported at once', () => {
    const n = owner0();
    n.request(put, 7, 10);
    const rep = n.ready().find((o) => o.kind === 'peer');
    if (rep?.kind !== 'peer') throw new Error('no rep');
    n.undeliverable(rep.peer, rep.msg, 10);
    expect(n.ready()[0]).toEqual({ kind: 'control', msg: { kind: 'replicaLost', segment: 0, replica: 1 } });
  });

  it('fenced for a handoff it answers OwnershipChanging and sends its final state to the new owner', () => {
    const n = owner0();
    n.fromControl({ kind: 'fence', handoff: 3, segment: 0, to: 2 }, 20);
    expect(n.ready()).toEqual([{ kind: 'peer', peer: 2, msg: { kind: 'snapshot', segment: 0, entries: [], handoff: 3 } }]);
    n.request(put, 8, 21);
    expect(n.ready()).toEqual([{ kind: 'reply', replyTo: 8, reply: { status: 'OwnershipChanging' } }]);
    // a view in which it no longer owns the segment settles the fence
    n.fromControl({ kind: 'view', view: { ...VIEW, epoch: 2, owners: [2, 1, 2, 0, 1, 2] } }, 22);
    expect(n.core.isFenced(0)).toBe(false);
  });

  it('requests wait for the disk replay and the first view', () => {
    const n = new LiveNode(0, CONFIG);
    n.request({ type: 'map' }, 1, 0);
    expect(n.ready()).toEqual([]);
    n.fromControl({ kind: 'replay', incarnation: 1, segments: [] }, 1);
    n.fromControl({ kind: 'view', view: VIEW }, 2);
    expect(replies(n.ready())).toEqual([{ kind: 'reply', replyTo: 1, reply: { status: 'Ok', map: expect.objectContaining({ epoch: 1 }) } }]);
  });
});
