import { segmentOf } from './segment';

/**
 * Key → segment, as the engine behind the client defines it. The simulation
 * uses FNV-1a mod its segment count; Redis Cluster uses CRC16 of the key (or
 * of its hash tag) mod 16,384 slots (`redisKeyspace.ts`). The client takes
 * one, so the same retry brain routes on either.
 */
export interface Keyspace {
  /** short name for logs and docs, e.g. "fnv1a/64" or "redis-crc16/16384" */
  readonly id: string;
  readonly segmentCount: number;
  /** the segment `key` belongs to, in [0, segmentCount) */
  segmentOf(key: string): number;
}

/** the simulation's keyspace: FNV-1a 32-bit mod `segments` */
export function fnvKeyspace(segments: number): Keyspace {
  return { id: `fnv1a/${segments}`, segmentCount: segments, segmentOf: (key) => segmentOf(key, segments) };
}
