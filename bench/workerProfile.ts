/**
 * CPU profile of one of the playground's Web Workers (default: the client
 * worker; `--worker main` profiles the page's main thread) under the firehose workload, self time by function and by source
 * file (source-mapped). Playwright has no CDP session for dedicated workers,
 * so this talks raw CDP over Chromium's debugging port (flattened sessions).
 *
 *   NODE_OPTIONS=--experimental-websocket npx tsx bench/workerProfile.ts
 *     [--worker client|main|node-0|control] [--seconds 10] [--warmup 15] [--users 1000 | --rate R] [--port 4193] [--cdp-port 9339]
 *
 * Needs the test build dist-e2e/ (npm run build:e2e). Prints the top functions and files and
 * the ops/s the client delivered while profiled (the profiler itself costs a
 * few %).
 */
import { cpSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { preview } from 'vite';
import { DashboardPage } from '../e2e/pages/dashboard.page';
import { launchBrowser } from '../e2e/support/browser';
import { groupOf, SourceMapLookupFor } from './cpuProfile';

const arg = (name: string, dflt: string): string => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? dflt) : dflt;
};

interface CdpMessage {
  readonly id?: number;
  readonly method?: string;
  readonly sessionId?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { message: string };
}

class RawCdp {
  private nextId = 1;
  private readonly waiting = new Map<number, (m: CdpMessage) => void>();
  readonly events: CdpMessage[] = [];
  private constructor(private readonly ws: WebSocket) {
    ws.onmessage = (ev) => {
      const m = JSON.parse(String(ev.data)) as CdpMessage;
      if (m.id !== undefined) this.waiting.get(m.id)?.(m);
      else this.events.push(m);
    };
  }
  static async open(url: string): Promise<RawCdp> {
    const ws = new WebSocket(url);
    await new Promise((res, rej) => {
      ws.onopen = res;
      ws.onerror = rej;
    });
    return new RawCdp(ws);
  }
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    this.ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    return new Promise((res, rej) => {
      this.waiting.set(id, (m) => (m.error ? rej(new Error(`${method}: ${m.error.message}`)) : res(m.result ?? {})));
    });
  }
  close(): void {
    this.ws.close();
  }
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
}

async function main(): Promise<void> {
  const which = arg('worker', 'client');
  const seconds = Number(arg('seconds', '10'));
  const warmup = Number(arg('warmup', '15'));
  const users = arg('users', '1000');
  const port = Number(arg('port', '4193'));
  const cdpPort = Number(arg('cdp-port', '9339'));
  const served = join('.tmp', 'worker-profile-dist');
  rmSync(served, { recursive: true, force: true });
  cpSync('dist-e2e', served, { recursive: true });
  const server = await preview({ build: { outDir: served }, preview: { host: '127.0.0.1', port, strictPort: true }, logLevel: 'warn' });
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}/`;
  process.env.CHROMIUM_EXTRA_ARGS = `--remote-debugging-port=${cdpPort}`;
  const { context } = await launchBrowser();
  try {
    const d = await DashboardPage.create(context);
    await d.goto();
    await d.start();
    const rate = arg('rate', '0');
    await d.setWorkload(rate !== '0' ? { concurrency: '0', ratePerSec: rate, maxInFlight: '4096' } : { concurrency: users, thinkMs: '0', ratePerSec: '0' });
    await new Promise((r) => setTimeout(r, warmup * 1000));
    const version = (await (await fetch(`http://127.0.0.1:${cdpPort}/json/version`)).json()) as { webSocketDebuggerUrl: string };
    const cdp = await RawCdp.open(version.webSocketDebuggerUrl);
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { targetId: string; type: string; title: string; url: string }[] };
    const target = targetInfos.find((t) => (which === 'main' ? t.type === 'page' && t.url.startsWith('http://127.0.0.1') : t.type === 'worker' && (t.title === which || t.url.includes(`${which}.worker`))));
    if (target === undefined) throw new Error(`no worker "${which}" among ${targetInfos.map((t) => `${t.type}:${t.title}`).join(', ')}`);
    const { sessionId } = (await cdp.send('Target.attachToTarget', { targetId: target.targetId, flatten: true })) as { sessionId: string };
    await cdp.send('Profiler.enable', {}, sessionId);
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 }, sessionId);
    const before = await d.storeState();
    const t0 = Date.now();
    await cdp.send('Profiler.start', {}, sessionId);
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const { profile } = (await cdp.send('Profiler.stop', {}, sessionId)) as { profile: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] } };
    const after = await d.storeState();
    const wall = (Date.now() - t0) / 1000;
    cdp.close();

    const lookup = SourceMapLookupFor(served);
    const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
    const byFn = new Map<string, number>();
    const byFile = new Map<string, number>();
    let total = 0;
    let idle = 0;
    for (let i = 0; i < profile.samples.length; i++) {
      const n = nodes.get(profile.samples[i] as number);
      const dt = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
      total += dt;
      const f = n?.callFrame;
      if (f === undefined) continue;
      if (f.functionName === '(idle)') {
        idle += dt;
        continue;
      }
      const src = f.url === '' ? null : lookup(f.url, f.lineNumber, f.columnNumber);
      const file = src ?? (f.url === '' ? '(native)' : f.url);
      const fn = `${f.functionName || '(anonymous)'} ${src ? src.replace(/^.*?(src|workers|node_modules)\//, '$1/') : f.url === '' ? '' : 'min'}`;
      byFn.set(fn, (byFn.get(fn) ?? 0) + dt);
      const g = src ? groupOf(src) + ' · ' + src.split('/').pop() : file;
      byFile.set(g, (byFile.get(g) ?? 0) + dt);
    }
    const busy = total - idle;
    const ops = (after.totals?.opsEnded ?? 0) - (before.totals?.opsEnded ?? 0);
    console.log(`worker ${which}: profiled ${(total / 1000).toFixed(1)} s, busy ${((100 * busy) / total).toFixed(0)} %; ${(ops / wall).toFixed(0)} ops/s → ${((busy * 1000) / Math.max(1, ops)).toFixed(1)} µs busy per op`);
    const top = (m: Map<string, number>, k: number) =>
      [...m.entries()]
        .sort((a, b) => b[1] - a[1])
        .slice(0, k)
        .map(([name, ms]) => `${((100 * ms) / busy).toFixed(1).padStart(5)} %  ${name}`)
        .join('\n');
    console.log('\nby file:\n' + top(byFile, 20));
    console.log('\nby function:\n' + top(byFn, 40));
  } finally {
    await context.close().catch(() => undefined);
    await server.close();
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
