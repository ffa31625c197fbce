/**
 * The bridge on a real Redis Cluster, end to end with `npm start`'s server
 * (src/server/start.ts serving a stub dist/): a session started over the
 * WebSocket builds the cluster; then the server ends — SIGTERM (as Ctrl+C),
 * or SIGKILL (a crash) — and no redis-server of the session is left.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';

const tmp = mkdtempSync(join(tmpdir(), 'zaris-bridge-redis-'));
mkdirSync(join(tmp, 'dist'));
writeFileSync(join(tmp, 'dist', 'index.html'), '<!doctype html><title>t</title>');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** redis-server processes listening on one of `ports` (title "redis-server 127.0.0.1:<port> [cluster]") */
function serversOn(ports: readonly number[]): number {
  try {
    return execFileSync('pgrep', ['-a', 'redis-server'], { encoding: 'utf8' })
      .split('\n')
      .filter((l) => ports.some((p) => new RegExp(`:${p}\\b`).test(l))).length;
  } catch {
    return 0;
  }
}

/** the server (tsx start.ts on port 0, its own process group), its URL once printed */
async function serve(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts', '--port', '0', '--dist', join(tmp, 'dist')], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  const url = await new Promise<string>((ok, fail) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += String(d);
      const m = /served at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
      if (m) ok(m[1] as string);
    });
    child.once('exit', (code) => fail(new Error(`the server exited (${code}): ${out}`)));
  });
  return { child, url };
}

/** opens a session and starts the steady preset; resolves with the cluster's ports */
async function startSession(url: string): Promise<number[]> {
  const { token } = (await (await fetch(new URL('/session', url))).json()) as { token: string };
  const origin = url.replace(/\/$/, '');
  const ws = new WebSocket(`${origin.replace('http:', 'ws:')}/real-engine?token=${token}`, { headers: { Origin: origin } });
  ws.on('error', () => undefined); // the server goes away under it
  const ports = new Promise<number[]>((ok, fail) =>
    ws.on('message', (d, binary) => {
      if (binary) return;
      const m = JSON.parse(String(d)) as { kind: string; phase?: string; detail?: string; error?: string };
      if (m.kind === 'phase' && m.phase === 'running') ok([...(m.detail ?? '').matchAll(/\d{4,5}/g)].map((x) => Number(x[0])));
      if (m.kind === 'done' && m.error !== undefined) fail(new Error(m.error));
    }),
  );
  await new Promise((r) => ws.once('open', r));
  ws.send(JSON.stringify({ type: 'start', id: 1, preset: 'steady' }));
  return ports;
}

async function gone(ports: readonly number[]): Promise<number> {
  for (let i = 0; i < 120 && serversOn(ports) > 0; i++) await new Promise((r) => setTimeout(r, 250));
  return serversOn(ports);
}

describe('the bridge stops every redis-server when the server ends', () => {
  it.each(['SIGTERM', 'SIGKILL'] as const)('%s of the server', async (signal) => {
    const { child, url } = await serve();
    try {
      const ports = await startSession(url);
      expect(ports).toHaveLength(6);
      expect(serversOn(ports)).toBe(6);
      child.kill(signal);
      expect(await gone(ports), `redis-servers left after ${signal} of the server`).toBe(0);
    } finally {
      try {
        process.kill(-(child.pid as number), 'SIGKILL');
      } catch {
        /* gone already */
      }
    }
  });
});
