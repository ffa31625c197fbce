import { describe, expect, it } from 'vitest';
import { NO_OWNER, type ClusterMap } from '../domain/clusterMap';
import type { Transport } from './transport';
import { REDIS_KEYSPACE, redisSlot } from '../domain/redisKeyspace';
import { segmentOf } from '../domain/segment';
import { VirtualScheduler } from '../time/virtualScheduler';
import { EventLog } from './testkit/harness';
import { ZarisClient } from './ZarisClient';

/** a transport that records where data requests go and answers Ok */
function recording(): { transport: Transport; sent: { node: number; segment: number }[] } {
  const sent: { node: number; segment: number }[] = [];
  return {
    sent,
    transport: {
      send(node, request, _t, done) {
        if (request.type === 'data') sent.push({ node, segment: request.segment });
        done({ ok: true, reply: { status: 'Ok', version: 1 } });
      },
    },
  };
}

describe('the client routes by the keyspace it is given', () => {
  it('Redis keyspace: the segment is the CRC16 slot, routed through a 16,384-slot map', () => {
    const owners = new Array<number>(16_384).fill(NO_OWNER);
    owners[redisSlot('foo')] = 2;
    const map: ClusterMap = { epoch: 1, owners, replicas: owners.map(() => []), nodes: [0, 1, 2] };
    const { transport, sent } = recording();
    const log = new EventLog();
    const client = new ZarisClient({ scheduler: new VirtualScheduler(), transport, seedNodes: [0], segmentCount: 16_384, keyspace: REDIS_KEYSPACE, initialMap: map, sink: log });
    client.execute({ kind: 'get', key: 'foo' }, () => {});
    expect(sent).toEqual([{ node: 2, segment: 12182 }]);
    expect(log.of('op.start')[0]?.segment).toBe(12182);
  });

  it('no keyspace: the simulation FNV-1a over the map segment count, as before', () => {
    const owners = new Array<number>(64).fill(1);
    const map: ClusterMap = { epoch: 1, owners, replicas: owners.map(() => []), nodes: [0, 1] };
    const { transport, sent } = recording();
    const client = new ZarisClient({ scheduler: new VirtualScheduler(), transport, seedNodes: [0], segmentCount: 64, initialMap: map });
    client.execute({ kind: 'get', key: 'foo' }, () => {});
    expect(sent).toEqual([{ node: 1, segment: segmentOf('foo', 64) }]);
  });
});
