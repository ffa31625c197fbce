import { describe, expect, it } from 'vitest';
import { NO_OWNER } from '../../core/domain/clusterMap';
import { isFailed, parseClusterNodes, toClusterMap } from './clusterNodes';

// Redis 7.0 CLUSTER NODES after node :7001 (master of 5461-10922) failed and :7004 took over,
// with slot 0 being migrated from :7000 to :7006.
const TEXT = [
  'a0 127.0.0.1:7000@17000 myself,master - 0 0 1 connected 0-5460 [0->-f6]',
  'a1 127.0.0.1:7001@17001 master,fail - 1 1 2 disconnected',
  'a2 127.0.0.1:7002@17002 master - 0 0 3 connected 10923-16383',
  'a3 127.0.0.1:7003@17003 slave a0 0 0 1 connected',
  'a4 127.0.0.1:7004@17004 master - 0 0 7 connected 5461-10922',
  'a5 127.0.0.1:7005@17005 slave a2 0 0 3 connected',
  'f6 127.0.0.1:7006@17006,host6 master - 0 0 8 connected [0-<-a0]',
  'h7 127.0.0.1:7007@17007 handshake - 0 0 0 connected',
  '',
].join('\n');

describe('CLUSTER NODES', () => {
  const lines = parseClusterNodes(TEXT);

  it('reads ids, addresses, flags, masters, epochs, slots and migrations', () => {
    expect(lines).toHaveLength(8);
    const [me, failed] = lines;
    expect(me).toMatchObject({ redisId: 'a0', host: '127.0.0.1', port: 7000, masterId: null, configEpoch: 1, connected: true, slots: [[0, 5460]] });
    expect(me?.migrating.get(0)).toBe('f6');
    expect(lines[6]?.importing.get(0)).toBe('a0');
    expect(lines[6]?.port).toBe(7006);
    expect(failed && isFailed(failed)).toBe(true);
    expect(lines[3]?.masterId).toBe('a0');
  });

  it('becomes a Zaris map: owner = the master serving the slot, its live replicas, epoch = highest config epoch', () => {
    const ports = [7000, 7001, 7002, 7003, 7004, 7005, 7006, 7007];
    const map = toClusterMap(lines, (p) => ports.indexOf(p));
    expect(map.owners).toHaveLength(16_384);
    expect(map.owners[0]).toBe(0);
    expect(map.owners[5461]).toBe(4);
    expect(map.owners[16383]).toBe(2);
    expect(map.replicas[0]).toEqual([3]);
    expect(map.replicas[5461]).toEqual([]);
    expect(map.replicas[12000]).toEqual([5]);
    expect(map.epoch).toBe(7); // 7006 serves no slot yet: its epoch 8 is not the map's
    expect(map.nodes).toEqual([0, 1, 2, 3, 4, 5, 6]); // the handshake is not a member
    expect(map.owners.includes(NO_OWNER)).toBe(false);
  });

  it('refuses a malformed line', () => {
    expect(() => parseClusterNodes('a0 127.0.0.1:7000@17000 master')).toThrow(/malformed/);
  });
});
