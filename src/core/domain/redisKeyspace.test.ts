import { describe, expect, it } from 'vitest';
import { fnvKeyspace } from './keyspace';
import { crc16, REDIS_KEYSPACE, REDIS_SLOTS, redisSlot, utf8 } from './redisKeyspace';
import { segmentOf } from './segment';

const ascii = (s: string): Uint8Array => Uint8Array.from([...s].map((c) => c.charCodeAt(0)));

describe('CRC16-XMODEM (Redis Cluster key hashing)', () => {
  it('matches the published check value and Redis documentation vectors', () => {
    expect(crc16(ascii('123456789'))).toBe(0x31c3);
    expect(crc16(new Uint8Array(0))).toBe(0);
    expect(crc16(ascii('A'))).toBe(0x58e5);
  });

  it('gives the slots Redis gives (CLUSTER KEYSLOT, Redis 7.0)', () => {
    expect(redisSlot('foo')).toBe(12182);
    expect(redisSlot('bar')).toBe(5061);
    expect(redisSlot('hello')).toBe(866);
    expect(redisSlot('k0')).toBe(crc16(ascii('k0')) % REDIS_SLOTS);
  });

  it('hashes only a non-empty hash tag: the first { and the first } after it', () => {
    expect(redisSlot('{user1000}.following')).toBe(redisSlot('user1000'));
    expect(redisSlot('{user1000}.followers')).toBe(redisSlot('user1000'));
    expect(redisSlot('foo{}{bar}')).toBe(crc16(ascii('foo{}{bar}')) % REDIS_SLOTS); // empty first tag: whole key
    expect(redisSlot('foo{{bar}}zap')).toBe(redisSlot('{bar')); // tag is "{bar"
    expect(redisSlot('foo{bar}{zap}')).toBe(redisSlot('bar'));
    expect(redisSlot('{unclosed')).toBe(crc16(ascii('{unclosed')) % REDIS_SLOTS);
  });

  it('hashes the UTF-8 bytes of the key', () => {
    expect([...utf8('aé€😀')]).toEqual([0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]);
    expect(redisSlot('é')).toBe(crc16(Uint8Array.from([0xc3, 0xa9])) % REDIS_SLOTS);
  });

  it('is a keyspace of 16,384 segments; the simulation keeps FNV-1a', () => {
    expect(REDIS_KEYSPACE.segmentCount).toBe(16_384);
    expect(REDIS_KEYSPACE.segmentOf('foo')).toBe(12182);
    const sim = fnvKeyspace(64);
    for (const k of ['k0', 'k1', 'foo', '{x}y']) expect(sim.segmentOf(k)).toBe(segmentOf(k, 64));
  });
});
