/**
 * What the engine drives the workload through: the Zaris client over RESP,
 * or ioredis (`ioredisClient.ts`). Both run operations with the callback API
 * the workload uses and emit the same event stream.
 */
import type { ClientConfig } from '../../core/client/config';
import type { ClusterMap } from '../../core/domain/clusterMap';
import { ZarisClient } from '../../core/client/ZarisClient';
import { REDIS_KEYSPACE } from '../../core/domain/redisKeyspace';
import type { TelemetrySink } from '../../core/telemetry/events';
import type { OpExecutor } from '../../core/sim/workload';
import type { Scheduler } from '../../core/time/scheduler';
import { RequestDeadlines } from './connection';
import type { NodeDirectory } from './nodeDirectory';
import { RespTransport } from './respTransport';

export const ENGINE_CLIENTS = ['zaris', 'ioredis'] as const;
export type EngineClientKind = (typeof ENGINE_CLIENTS)[number];

export interface EngineClient extends OpExecutor {
  readonly kind: EngineClientKind;
  /** fetches the first map / slot table */
  connect(): Promise<void>;
  /** where events go (undefined: none are built) */
  setSink(sink: TelemetrySink | undefined): void;
  /** new client settings for operations started from now on (the Zaris client only) */
  configure?(config: ClientConfig): void;
  /** the client's own counters for the summary */
  notes(): Record<string, number | string>;
  /** the client's cached map (slot → master), for the dashboard's cluster view (the Zaris client only) */
  map?(): ClusterMap;
  close(): Promise<void>;
}

export interface EngineClientOptions {
  readonly directory: NodeDirectory;
  readonly scheduler: Scheduler;
  readonly config: ClientConfig;
  readonly seedNodes: readonly number[];
  readonly waitReplicas: number;
  readonly waitTimeoutMs: number;
}

/** the Zaris client, its retry brain untouched, on {@link RespTransport} with Redis's keyspace */
export function createZarisEngineClient(o: EngineClientOptions): EngineClient {
  const deadlines = new RequestDeadlines();
  let sink: TelemetrySink | undefined;
  const transport = new RespTransport({
    directory: o.directory,
    deadlines,
    scheduler: o.scheduler,
    sink: () => sink,
    waitReplicas: o.waitReplicas,
    waitTimeoutMs: o.waitTimeoutMs,
  });
  const client = new ZarisClient({
    scheduler: o.scheduler,
    transport,
    seedNodes: o.seedNodes,
    segmentCount: REDIS_KEYSPACE.segmentCount,
    keyspace: REDIS_KEYSPACE,
    config: o.config,
  });
  return {
    kind: 'zaris',
    execute: (request, done) => client.execute(request, done),
    connect: () =>
      new Promise((resolve, reject) => client.connect((ok) => (ok ? resolve() : reject(new Error('the Zaris client could not fetch a cluster map from any node'))))),
    setSink(s) {
      sink = s;
      client.sink = s;
    },
    configure: (config) => client.configure(config),
    notes: () => ({ asksFollowed: transport.asks, mapEpoch: client.map.epoch }),
    map: () => client.map,
    async close() {
      transport.close();
      deadlines.clear();
    },
  };
}
