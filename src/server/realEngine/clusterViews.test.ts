import { describe, expect, it } from 'vitest';
import { parseClusterNodes } from '../../engine/redis/clusterNodes';
import { clientViewOfMap, clusterViewOfNodes, projectOwners, redisCellSlots } from './clusterViews';

const NODES = [
  'aaaa 127.0.0.1:7000@17000 master - 0 0 1 connected 0-5460',
  'bbbb 127.0.0.1:7001@17001 master,fail - 0 0 2 connected 5461-10922',
  'cccc 127.0.0.1:7002@17002 myself,master - 0 0 3 connected 10923-16383 [16000->-aaaa]',
  'dddd 127.0.0.1:7003@17003 slave aaaa 0 0 1 connected',
  'eeee 127.0.0.1:7004@17004 slave bbbb 0 0 2 connected',
].join('\n');

describe('the real cluster as the cluster panel reads it', () => {
  it('cells cover the 16,384 slots in order, without gaps', () => {
    expect(redisCellSlots(0, 64)).toEqual([0, 256]);
    expect(redisCellSlots(63, 64)).toEqual([16128, 16384]);
    expect(redisCellSlots(1, 3)).toEqual([5461, 10922]);
  });

  it('a cell shows the owner of most of its slots', () => {
    const owners = new Array<number>(16384).fill(1);
    for (let s = 0; s < 200; s++) owners[s] = 0;
    expect(projectOwners(owners, 64).slice(0, 2)).toEqual([0, 1]);
  });

  it('from CLUSTER NODES: owners, failed flags, process status, replicas, migrating slots, epoch', () => {
    const ports = [7000, 7001, 7002, 7003, 7004];
    const v = clusterViewOfNodes(parseClusterNodes(NODES), { ids: [0, 1, 2, 3, 4], idOf: (p) => ports.indexOf(p), processStatus: (id) => (id === 1 ? 'down' : 'up') }, 64, 1234);
    expect(v.t).toBe(1234);
    expect(v.epoch).toBe(3);
    expect(v.slots).toBe(16_384); // the header and the cluster panel say hash slots, not the scenario's segments
    expect(v.owners[0]).toBe(0);
    expect(v.owners[30]).toBe(1);
    expect(v.owners[63]).toBe(2);
    expect(v.nodes.find((n) => n.id === 1)).toEqual({ id: 1, status: 'down', declaredDead: true });
    expect(v.replicas[0]).toEqual([3]);
    expect(v.replicas[30]).toEqual([4]);
    expect(v.phases[62]).toBe('migrating'); // slot 16000
    expect(v.phases.filter((p) => p === 'migrating')).toHaveLength(1);
  });

  it("the client's map goes through the same projection", () => {
    const owners = new Array<number>(16384).fill(2);
    expect(clientViewOfMap({ epoch: 5, owners }, 4, 9)).toEqual({ t: 9, epoch: 5, owners: [2, 2, 2, 2] });
  });
});
