/**
 * The real-engine bridge over a real socket, with a fake engine host: who is
 * refused (another origin, no token, a wrong token, a second session), which
 * messages are refused (malformed, unknown, oversized, binary, a fault the
 * engine cannot do), and that none of them starts a process.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { EventBatchBuilder } from '../../core/telemetry/eventCodec';
import { decodeBatch, realEngineStatusSchema, REAL_ENGINE_PATH, REAL_ENGINE_STATUS_PATH } from '../../platform/realEngineProtocol.ts';
import { createAppServer, type AppServer } from '../appServer.ts';
import { sessionExtension } from '../sessionRoute.ts';
import type { HostCommand, HostMessage } from './hostProtocol.ts';
import { realEngineBridge, type EngineHost } from './realEngineBridge.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zaris-bridge-'));
mkdirSync(join(tmp, 'dist'));
writeFileSync(join(tmp, 'dist', 'index.html'), '<!doctype html><title>t</title>');

/** a host that records what it is told and can talk back */
class FakeHost implements EngineHost {
  readonly commands: HostCommand[] = [];
  stopped = false;
  private listener: (m: HostMessage) => void = () => {};
  send(c: HostCommand): void {
    this.commands.push(c);
    this.listener({ kind: 'done', id: c.id });
  }
  onMessage(fn: (m: HostMessage) => void): void {
    this.listener = fn;
  }
  onExit(): void {}
  emit(m: HostMessage): void {
    this.listener(m);
  }
  async stop(): Promise<void> {
    this.stopped = true;
  }
}

let hosts: FakeHost[] = [];
let installed = true;
let app: AppServer;

beforeAll(async () => {
  app = await createAppServer({
    distDir: join(tmp, 'dist'),
    port: 0,
    extensions: [
      sessionExtension,
      realEngineBridge({
        spawnHost: () => {
          const h = new FakeHost();
          hosts.push(h);
          return h;
        },
        redisPath: () => (installed ? '/usr/bin/redis-server' : null),
      }),
    ],
  });
});
afterAll(async () => {
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  hosts = [];
  installed = true;
});

const origin = () => `http://127.0.0.1:${app.port}`;

interface Conn {
  readonly ws: WebSocket;
  readonly texts: Record<string, unknown>[];
  readonly binaries: Buffer[];
  readonly closed: Promise<number>;
}

/** opens the bridge socket; resolves with the connection or the HTTP status it was refused with */
function connect(query: string, headers: Record<string, string> = { Origin: origin() }): Promise<Conn | number> {
  return new Promise((ok, fail) => {
    const ws = new WebSocket(`ws://127.0.0.1:${app.port}${REAL_ENGINE_PATH}${query}`, { headers });
    const texts: Record<string, unknown>[] = [];
    const binaries: Buffer[] = [];
    const closed = new Promise<number>((r) => ws.once('close', (code) => r(code)));
    ws.on('message', (data, isBinary) => {
      if (isBinary) binaries.push(data as Buffer);
      else texts.push(JSON.parse(String(data)) as Record<string, unknown>);
    });
    ws.once('unexpected-response', (_req, res) => ok(res.statusCode ?? 0));
    ws.once('open', () => ok({ ws, texts, binaries, closed }));
    ws.once('error', (e) => {
      if (!/Unexpected server response/.test(e.message)) fail(e);
    });
  });
}

const until = async (ok: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    if (ok()) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`timed out waiting for ${what}`);
};

async function open(): Promise<Conn> {
  const c = await connect(`?token=${app.session.token}`);
  if (typeof c === 'number') throw new Error(`refused with ${c}`);
  return c;
}

describe('the real-engine bridge', () => {
  it('refuses a page of another origin, a missing token and a wrong token, and starts nothing', async () => {
    const token = app.session.token;
    expect(await connect(`?token=${token}`, { Origin: 'http://evil.example' })).toBe(403);
    expect(await connect(`?token=${token}`, { Origin: `http://127.0.0.1:${app.port + 1}` })).toBe(403);
    expect(await connect(`?token=${token}`, {})).toBe(403);
    expect(await connect('')).toBe(403);
    expect(await connect('?token=')).toBe(403);
    expect(await connect(`?token=${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`)).toBe(403);
    expect(await connect(`?token=${'x'.repeat(43)}`)).toBe(403);
    expect(hosts).toHaveLength(0);
  });

  it.each([
    ['not JSON', 'start steady'],
    ['an unknown type', JSON.stringify({ type: 'exec', id: 1, command: 'redis-server --port 1' })],
    ['an extra field', JSON.stringify({ type: 'start', id: 1, preset: 'steady', port: 6379 })],
    ['a preset not in the registry', JSON.stringify({ type: 'start', id: 1, preset: '../../etc/passwd' })],
    ['a fault not in the registry', JSON.stringify({ type: 'fault', id: 1, action: 'shell', node: 0 })],
    ['a node that is not an index', JSON.stringify({ type: 'fault', id: 1, action: 'failover', node: '0; kill 1' })],
    ['a node index out of range', JSON.stringify({ type: 'fault', id: 1, action: 'failover', node: 99 })],
    ['a missing id', JSON.stringify({ type: 'start', preset: 'steady' })],
  ])('closes the socket on %s and starts nothing', async (_what, text) => {
    const c = await open();
    c.ws.send(text);
    expect(await c.closed).toBe(1008);
    const error = c.texts.find((m) => m.kind === 'error');
    expect(String(error?.message)).toMatch(/^refused: \S+: /);
    expect(hosts).toHaveLength(0);
  });

  it('refuses binary and oversized messages', async () => {
    const a = await open();
    a.ws.send(Buffer.from(JSON.stringify({ type: 'pause', id: 1 })));
    expect(await a.closed).toBe(1008);
    const b = await open();
    b.ws.send(JSON.stringify({ type: 'start', id: 1, preset: 'steady', pad: 'x'.repeat(5000) }));
    expect(await b.closed).toBe(1009);
    expect(hosts).toHaveLength(0);
  });

  it('answers a command before Start and a fault it cannot do without starting anything', async () => {
    const c = await open();
    c.ws.send(JSON.stringify({ type: 'pause', id: 7 }));
    c.ws.send(JSON.stringify({ type: 'fault', id: 8, action: 'slow', node: 0 }));
    await until(() => c.texts.filter((m) => m.kind === 'done').length === 2, 'two answers');
    expect(c.texts.filter((m) => m.kind === 'done')).toEqual([
      { kind: 'done', id: 7, error: 'the real engine has not started: press Start' },
      { kind: 'done', id: 8, error: 'fault slow: the real engine cannot slow a loopback link (Redis has no such knob)' },
    ]);
    expect(hosts).toHaveLength(0);
    c.ws.close();
    await c.closed;
  });

  it('without redis-server, Start answers one line and starts nothing', async () => {
    installed = false;
    const c = await open();
    c.ws.send(JSON.stringify({ type: 'start', id: 1, preset: 'steady' }));
    await until(() => c.texts.some((m) => m.kind === 'done'), 'the answer');
    expect(c.texts.find((m) => m.kind === 'done')).toEqual({ kind: 'done', id: 1, error: 'redis-server is not installed on this machine (apt-get install redis-server)' });
    expect(hosts).toHaveLength(0);
    c.ws.close();
    await c.closed;
  });

  it('runs one session at a time: Start spawns one host, commands reach it, batches come back binary, closing stops it', async () => {
    const c = await open();
    expect(await connect(`?token=${app.session.token}`)).toBe(409);
    c.ws.send(JSON.stringify({ type: 'start', id: 1, preset: 'steady' }));
    await until(() => hosts.length === 1 && c.texts.some((m) => m.kind === 'done'), 'the host');
    const host = hosts[0] as FakeHost;
    c.ws.send(JSON.stringify({ type: 'fault', id: 2, action: 'failover', node: 1 }));
    c.ws.send(JSON.stringify({ type: 'pause', id: 3 }));
    await until(() => host.commands.length === 3, 'three commands');
    expect(host.commands).toEqual([
      { type: 'start', id: 1, preset: 'steady' },
      { type: 'fault', id: 2, command: { action: 'failover', node: 1 } },
      { type: 'pause', id: 3 },
    ]);
    const b = new EventBatchBuilder(4);
    b.push({ t: 12.5, type: 'refresh.request', op: 3, cause: 'Moved' });
    host.emit({ kind: 'batch', batch: b.take() });
    await until(() => c.binaries.length === 1, 'a batch frame');
    const batch = decodeBatch(new Uint8Array(c.binaries[0] as Buffer));
    expect(batch.n).toBe(1);
    expect(batch.t[0]).toBe(12.5);
    c.ws.close();
    await until(() => host.stopped, 'the host stopped');
    expect(hosts).toHaveLength(1);
    // the next session may start once the last one ended
    const next = await open();
    next.ws.close();
    await next.closed;
  });

  it('serves its status to this origin only', async () => {
    const res = await fetch(`${origin()}${REAL_ENGINE_STATUS_PATH}`);
    const status = realEngineStatusSchema.parse(await res.json());
    expect(status.available).toBe(true);
    expect(status.faults.map((f) => f.action)).toEqual(['failover', 'scaleOut', 'failback', 'hang', 'resume']);
    expect(status.unsupported.map((f) => f.action)).toEqual(['slow', 'lostAck', 'partition', 'garble']);
    expect(status.presets).toContain('steady');
    expect(status.presets).not.toContain('lost-ack');
    const cross = await fetch(`${origin()}${REAL_ENGINE_STATUS_PATH}`, { headers: { 'Sec-Fetch-Site': 'cross-site' } });
    expect(cross.status).toBe(403);
    installed = false;
    const none = realEngineStatusSchema.parse(await (await fetch(`${origin()}${REAL_ENGINE_STATUS_PATH}`)).json());
    expect(none).toMatchObject({ available: false, reason: 'redis-server is not installed on this machine (apt-get install redis-server)' });
  });
});
