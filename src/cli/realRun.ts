/**
 * The CLI's `--engine redis` path: validates, runs the scenario on a local
 * Redis Cluster through {@link RedisEngine}, and reports engine errors in one
 * line (exit code 2 for bad input such as a fault Redis cannot do or a port
 * in use). Every server is stopped whatever happens (the engine's job).
 */
import { RedisEngine, validateForRedis } from '../engine/redis/redisEngine';
import { EngineInputError } from '../engine/redis/redisServers';
import { parseIoredisOptions } from '../engine/redis/ioredisOptions';
import type { RunSummary } from '../core/sim/runScenario';
import type { Scenario } from '../core/sim/scenario';
import type { TelemetrySink } from '../core/telemetry/events';

export interface RealArgs {
  client?: 'zaris' | 'ioredis';
  waitReplicas?: number;
  rate?: number;
  basePort?: number;
  /** --ioredis-options JSON text */
  ioredisOptions?: string;
}

/** the real-engine flags (for "needs --engine redis") */
export const REAL_ARG_NAMES: readonly { key: keyof RealArgs; flag: string }[] = [
  { key: 'client', flag: '--client' },
  { key: 'waitReplicas', flag: '--wait-replicas' },
  { key: 'rate', flag: '--rate' },
  { key: 'basePort', flag: '--base-port' },
  { key: 'ioredisOptions', flag: '--ioredis-options' },
];

export async function runOnRedis(scenario: Scenario, args: RealArgs, sink: TelemetrySink | null): Promise<{ summary: RunSummary | null }> {
  const log = (line: string): void => void process.stderr.write(`[redis] ${line}\n`);
  try {
    validateForRedis(scenario, args.waitReplicas ?? 0, args.client ?? 'zaris');
    if (args.ioredisOptions !== undefined && args.client !== 'ioredis') throw new EngineInputError('--ioredis-options needs --client ioredis');
    const ioredisOptions = args.ioredisOptions !== undefined ? parseIoredisOptions(args.ioredisOptions) : undefined;
    const engine = await RedisEngine.start(scenario, {
      ...(args.client !== undefined ? { client: args.client } : {}),
      ...(args.waitReplicas !== undefined ? { waitReplicas: args.waitReplicas } : {}),
      ...(args.rate !== undefined ? { rate: args.rate } : {}),
      ...(args.basePort !== undefined ? { basePort: args.basePort } : {}),
      ...(ioredisOptions !== undefined ? { ioredisOptions } : {}),
      ...(sink !== null ? { sink } : {}),
      log,
    });
    await engine.finished;
    log('run over: reading every acknowledged key back, stopping the servers');
    const { summary } = await engine.stop();
    log(summary.engine?.cleanup ?? '');
    return { summary };
  } catch (e) {
    if (e instanceof EngineInputError) {
      process.stderr.write(`error: ${e.message}\n`);
      return { summary: null };
    }
    throw e;
  }
}
