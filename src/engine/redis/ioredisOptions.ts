/**
 * `--ioredis-options '{…}'`: the ioredis Cluster options a comparison may
 * change (ioredis's defaults otherwise), validated like every input: one
 * line naming the field and what is allowed.
 */
import { z } from 'zod';
import type { ClusterOptions } from 'ioredis';
import { EngineInputError } from './redisServers';
import { findDuplicateKey } from '../../core/jsonText';

const ms = (name: string) => z.number({ error: `${name} must be a number of ms` }).int(`${name} must be whole ms`).min(0, `${name} must be ≥ 0`).max(600_000, `${name} must be ≤ 600000`);

export const ioredisOptionsSchema = z.strictObject({
  maxRedirections: z.number({ error: 'maxRedirections must be a whole number' }).int('maxRedirections must be a whole number').min(1, 'maxRedirections must be ≥ 1').max(1000, 'maxRedirections must be ≤ 1000'),
  retryDelayOnFailover: ms('retryDelayOnFailover'),
  retryDelayOnClusterDown: ms('retryDelayOnClusterDown'),
  retryDelayOnTryAgain: ms('retryDelayOnTryAgain'),
  retryDelayOnMoved: ms('retryDelayOnMoved'),
  slotsRefreshTimeout: ms('slotsRefreshTimeout'),
  slotsRefreshInterval: ms('slotsRefreshInterval'),
}).partial();

export const IOREDIS_OPTION_NAMES = Object.keys(ioredisOptionsSchema.shape);

/** parses the CLI's JSON text into ioredis Cluster options */
export function parseIoredisOptions(text: string): ClusterOptions {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new EngineInputError(`--ioredis-options is not valid JSON: ${(e as Error).message}`);
  }
  // JSON.parse keeps the last of a key given twice: which one was meant is not known
  const dup = findDuplicateKey(text);
  if (dup !== null) throw new EngineInputError(`--ioredis-options ${dup.path}: given twice; give it once`);
  if (json === null || typeof json !== 'object' || Array.isArray(json)) {
    throw new EngineInputError(`--ioredis-options must be one JSON object of ioredis Cluster options (allowed: ${IOREDIS_OPTION_NAMES.join(', ')}); got ${Array.isArray(json) ? 'a list' : json === null ? 'null' : typeof json}`);
  }
  const r = ioredisOptionsSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0];
    const field = i?.path.join('.') ?? '';
    const msg = i?.code === 'unrecognized_keys' ? `unknown option(s) ${i.keys.join(', ')} (allowed: ${IOREDIS_OPTION_NAMES.join(', ')})` : (i?.message ?? 'invalid');
    throw new EngineInputError(`--ioredis-options${field ? ` ${field}` : ''}: ${msg}`);
  }
  return r.data;
}
