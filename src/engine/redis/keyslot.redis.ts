/** Our CRC16 slots against Redis's own CLUSTER KEYSLOT, on a real server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redisSlot } from '../../core/domain/redisKeyspace';
import { RedisCluster } from './redisCluster';

let cluster: RedisCluster;
beforeAll(async () => {
  cluster = await RedisCluster.create({ masters: 1, replicasPerMaster: 0, nodeTimeoutMs: 1000 });
});
afterAll(async () => {
  await cluster.stop();
});

describe('CLUSTER KEYSLOT', () => {
  it('agrees with redisSlot on workload keys, hash tags and UTF-8 keys', async () => {
    const keys = [...Array.from({ length: 300 }, (_, i) => `k${i}`), '{user1000}.following', 'foo{}{bar}', 'foo{{bar}}zap', 'héllo', '日本', '😀', ''];
    for (const key of keys) expect([key, await cluster.call(0, ['CLUSTER', 'KEYSLOT', key])]).toEqual([key, redisSlot(key)]);
  });
});
