/**
 * Values with versions, atomically, in one Lua script per request (EVAL):
 * a key is a hash { v: value, ver: version } and a delete leaves a
 * tombstone { ver, d: 1 }, so versions never go back and the conditions
 * answer as the Zaris data path does (`src/core/cluster/dataPath.ts`):
 * - get: Ok + value + version, or NotFound + the tombstone's version;
 * - put: Conflict if ifAbsent and the key exists, or ifMatchVersion and the
 *   key is absent or at another version; else version + 1;
 * - delete: NotFound if absent; Conflict on a failed condition; else a
 *   tombstone at version + 1.
 * The script reads and writes one key (KEYS[1]), so Redis routes it by
 * that key's slot and answers MOVED / ASK / TRYAGAIN for it like any command.
 */
import type { DataReply, DataRequest } from '../../core/domain/protocol';
import { isKvStatus, KvStatus } from '../../core/domain/status';
import { RespError, type RespValue } from './resp';

export const DATA_SCRIPT = `
local k = KEYS[1]
local cur = redis.call('HMGET', k, 'ver', 'd', 'v')
local ver = tonumber(cur[1]) or 0
local exists = (cur[1] ~= false) and (cur[2] ~= '1')
local kind = ARGV[1]
if kind == 'g' then
  if exists then return {'Ok', cur[3], ver} end
  return {'NotFound', false, ver}
end
local cond = ARGV[3]
if kind == 'd' and not exists then return {'NotFound', false, ver} end
if cond == 'a' and exists then return {'Conflict', false, ver} end
if cond == 'm' and ((not exists) or ver ~= tonumber(ARGV[4])) then return {'Conflict', false, ver} end
if kind == 'd' then
  redis.call('HSET', k, 'ver', ver + 1, 'd', '1')
  redis.call('HDEL', k, 'v')
  return {'Ok', false, ver + 1}
end
redis.call('HSET', k, 'v', ARGV[2], 'ver', ver + 1)
redis.call('HDEL', k, 'd')
return {'Ok', false, ver + 1}
`;

const KIND_ARG = { get: 'g', put: 'p', delete: 'd' } as const;

/** the script's arguments for a request: kind, value, condition, version to match, op id (for logs) */
export function scriptArgs(req: Pick<DataRequest, 'kind' | 'key' | 'value' | 'cond' | 'op'>): (string | number)[] {
  const cond = req.cond?.ifAbsent === true ? 'a' : req.cond?.ifMatchVersion !== undefined ? 'm' : '';
  return [KIND_ARG[req.kind], req.value ?? '', cond, req.cond?.ifMatchVersion ?? 0, req.op];
}

/** EVAL of the data script for one request */
export function evalCommand(req: Pick<DataRequest, 'kind' | 'key' | 'value' | 'cond' | 'op'>): (string | number)[] {
  return ['EVAL', DATA_SCRIPT, 1, req.key, ...scriptArgs(req)];
}

/** the script's reply → a DataReply (null when the reply is not the script's) */
export function parseScriptReply(v: RespValue): DataReply | null {
  if (!Array.isArray(v) || v.length !== 3) return null;
  const [status, value, version] = v as readonly RespValue[];
  if (typeof status !== 'string' || !isKvStatus(status) || typeof version !== 'number') return null;
  if (status === KvStatus.Ok && typeof value === 'string') return { status, value, version };
  return { status, version };
}

/** the key's version in a raw `HGET key ver` reply (0 when absent) */
export function versionOfReply(v: RespValue): number {
  if (v instanceof RespError || v === null) return 0;
  const n = Number(v);
  return Number.isFinite(n) ? n : 0;
}
