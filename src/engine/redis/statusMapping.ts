/**
 * Redis error replies → the Zaris status vocabulary, one entry per code with
 * the reason (docs/redis-engine.md has the same table). ASK is not here: the
 * transport follows it inside the attempt (`respTransport.ts`).
 */
import { KvStatus } from '../../core/domain/status';
import type { RespError } from './resp';

export interface ErrorMapping {
  readonly code: string;
  readonly status: KvStatus;
  /** why this status (what the retry brain should do with it) */
  readonly why: string;
}

export const ERROR_MAPPINGS: readonly ErrorMapping[] = [
  { code: 'MOVED', status: KvStatus.Moved, why: 'the slot has another owner for good: refresh the map, then retry there' },
  { code: 'TRYAGAIN', status: KvStatus.Migrating, why: 'the slot is mid-migration and the keys are split: back off (×8) and retry, the map is right' },
  { code: 'CLUSTERDOWN', status: KvStatus.Unavailable, why: 'the slot has no serving master right now (failure not yet repaired): transient, retry with backoff' },
  { code: 'LOADING', status: KvStatus.Unavailable, why: 'the node is loading its dataset and answers nothing yet: transient' },
  { code: 'MASTERDOWN', status: KvStatus.Unavailable, why: "a replica whose master link is down refuses to serve: transient" },
  { code: 'READONLY', status: KvStatus.ReplicaWriteRejected, why: 'a write reached a replica: it is not the owner, refresh the map' },
];

const BY_CODE = new Map(ERROR_MAPPINGS.map((m) => [m.code, m.status]));

/** the status of an error reply, or null (any other error is NonRetryable) */
export function statusOfError(e: RespError): KvStatus | null {
  return BY_CODE.get(e.code) ?? null;
}

/** `ASK <slot> <host>:<port>` / `MOVED <slot> <host>:<port>` → the target */
export function redirectTarget(e: RespError): { slot: number; host: string; port: number } | null {
  const m = /^(?:ASK|MOVED) (\d+) (.+):(\d+)$/.exec(e.message);
  return m ? { slot: Number(m[1]), host: m[2] as string, port: Number(m[3]) } : null;
}
