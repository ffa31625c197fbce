/**
 * The engine host: the child process the bridge (realEngineBridge.ts) starts
 * for one dashboard session. It runs the real engine (src/engine/redis/,
 * the Zaris client over RESP on a Redis Cluster of this machine) and sends
 * back what the browser's workers send today: columnar event batches every
 * ≈50 ms, and the cluster's and the client's views twice a second.
 *
 * It lives as long as the session: when the bridge kills it (SIGTERM) or
 * goes away (the IPC channel closes: the server exited or crashed), the
 * engine's exit hooks stop every redis-server it started; if this process is
 * killed outright, the engine's watchdog (supervisor.mjs) does.
 */
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { RedisEngine } from '../../engine/redis/redisEngine';
import { clientViewOfMap, clusterViewOfNodes } from './clusterViews';
import type { HostCommand, HostMessage } from './hostProtocol';

const BATCH_MS = 50;
const VIEW_MS = 500;

const send = (m: HostMessage): void => {
  // a send racing the bridge's exit fails with EPIPE: the 'disconnect' handler ends this process
  if (process.connected) process.send?.(m, undefined, {}, () => undefined);
};

let engine: RedisEngine | null = null;
let scenario: Scenario | null = null;
const builder = new EventBatchBuilder(4096);
const timers: ReturnType<typeof setInterval>[] = [];

function flush(): void {
  if (builder.length > 0) send({ kind: 'batch', batch: builder.take() });
}

let viewBusy = false;
async function sendViews(): Promise<void> {
  if (engine === null || scenario === null || viewBusy) return;
  viewBusy = true;
  try {
    const e = engine;
    const cells = scenario.cluster.segments;
    const t = e.now;
    const v = await e.cluster.view();
    if (v !== null) {
      const dir = e.cluster.directory;
      const view = clusterViewOfNodes(
        v.lines,
        {
          ids: dir.ids(),
          idOf: (port) => dir.idOf(port),
          processStatus: (id) => {
            if (!e.cluster.running(id)) return 'down';
            return e.cluster.servers.servers.get(dir.portOf(id) as number)?.stopped === true ? 'hung' : 'up';
          },
        },
        cells,
        t,
      );
      send({ kind: 'clusterView', view });
    }
    const map = e.clientMap();
    if (map !== null) send({ kind: 'clientView', view: clientViewOfMap(map, cells, t) });
  } catch {
    /* the next poll tries again */
  } finally {
    viewBusy = false;
  }
}

async function start(preset: string): Promise<void> {
  if (engine !== null || scenario !== null) throw new Error('the real engine is running already');
  const p = findPreset(preset);
  if (p === undefined) throw new Error(`unknown preset "${preset}"`);
  scenario = loadScenario(p.input, `preset ${preset}`);
  send({ kind: 'phase', phase: 'starting', detail: `starting a Redis Cluster of ${scenario.cluster.nodes} masters × ${scenario.cluster.replicas} replica(s)` });
  try {
    engine = await RedisEngine.start(scenario, {
      client: 'zaris',
      sink: { emit: (e) => builder.push(e) },
      log: (line) => send({ kind: 'phase', phase: 'starting', detail: line }),
    });
  } catch (e) {
    // the engine stopped what it had started; Start may be pressed again
    scenario = null;
    send({ kind: 'phase', phase: 'idle', detail: 'the cluster did not start' });
    throw e;
  }
  timers.push(setInterval(flush, BATCH_MS), setInterval(() => void sendViews(), VIEW_MS));
  await sendViews();
  send({ kind: 'phase', phase: 'running', detail: `Redis Cluster on ports ${engine.cluster.directory.ids().map((i) => engine?.cluster.directory.portOf(i)).join(', ')}` });
}

function running(): RedisEngine {
  if (engine === null) throw new Error('the real engine has not started: press Start');
  return engine;
}

async function handle(c: HostCommand): Promise<void> {
  switch (c.type) {
    case 'start':
      return start(c.preset);
    case 'pause':
      running().pause();
      send({ kind: 'phase', phase: 'paused' });
      return;
    case 'resume':
      running().resume();
      send({ kind: 'phase', phase: 'running' });
      return;
    case 'fault': {
      const e = running();
      const node = c.command.node;
      // a node index must be one of this run's nodes (scaleOut starts the next one itself)
      if (node !== undefined && !e.cluster.directory.ids().includes(node)) throw new Error(`node ${node}: no such node (nodes: ${e.cluster.directory.ids().join(', ')})`);
      // answered once queued: a failback waits for its sync, the UI must not
      void e.fault(node === undefined ? { action: c.command.action } : { action: c.command.action, node });
      return;
    }
  }
}

process.on('message', (c: HostCommand) => {
  handle(c).then(
    () => send({ kind: 'done', id: c.id }),
    (e: unknown) => send({ kind: 'done', id: c.id, error: e instanceof Error ? e.message : String(e) }),
  );
});

// the bridge went away (server exit or crash): end, and with it every redis-server (exit hooks)
process.on('disconnect', () => {
  for (const t of timers) clearInterval(t);
  process.exit(0);
});
