/**
 * The production server over a real socket: a temporary dist/ with one file of
 * each kind, requests made with node:http (raw paths, raw Host headers).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { connect, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { serverSessionSchema } from '../platform/serverSession.ts';
import { createAppServer, HOST, PortUnavailableError, type AppServer } from './appServer.ts';
import type { CspViolation } from './cspReports.ts';
import { contentSecurityPolicy } from './csp.ts';
import { serverExtensions } from './registry.ts';

const tmp = mkdtempSync(join(tmpdir(), 'zaris-server-'));
const dist = join(tmp, 'dist');
mkdirSync(join(dist, 'assets'), { recursive: true });
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Zaris Churn Lab</title>');
writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(dist, 'assets', 'index-abc123.css'), 'body{}');
writeFileSync(join(dist, 'assets', 'index-abc123.js.map'), '{}');
writeFileSync(join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
writeFileSync(join(dist, '.env'), 'SECRET=1');
writeFileSync(join(tmp, 'outside.txt'), 'outside the root');
symlinkSync(join(tmp, 'outside.txt'), join(dist, 'link.txt'));

interface Reply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET', body?: string): Promise<Reply> {
  return new Promise((ok, fail) => {
    const req = request({ host: HOST, port, path, method, headers: { Host: `127.0.0.1:${port}`, ...headers }, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on('error', fail);
    req.end(body);
  });
}

let app: AppServer;
const violations: CspViolation[] = [];

beforeAll(async () => {
  app = await createAppServer({ distDir: dist, port: 0, extensions: serverExtensions({ onCspViolation: (v) => violations.push(v) }) });
});
afterAll(async () => {
  await app.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('createAppServer: static files', () => {
  it('listens on 127.0.0.1 only and says so in its URL', async () => {
    expect(app.httpServer.address()).toMatchObject({ address: '127.0.0.1', family: 'IPv4' });
    expect(app.url).toBe(`http://127.0.0.1:${app.port}/`);
    // another loopback address of this machine reaches nothing: the socket is bound to 127.0.0.1 alone
    const refused = await new Promise<string>((ok) => {
      const s = connect({ host: '127.0.0.2', port: app.port }, () => {
        s.destroy();
        ok('connected');
      });
      s.on('error', (e: NodeJS.ErrnoException) => ok(e.code ?? 'error'));
    });
    expect(refused).toBe('ECONNREFUSED');
  });

  it.each([
    ['/', 'text/html; charset=utf-8', 'no-cache'],
    ['/assets/index-abc123.js', 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/assets/index-abc123.css', 'text/css; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/assets/index-abc123.js.map', 'application/json; charset=utf-8', 'public, max-age=31536000, immutable'],
    ['/favicon.svg', 'image/svg+xml', 'no-cache'],
  ])('%s: %s, %s, the CSP and nosniff', async (path, type, cache) => {
    const r = await get(app.port, path);
    expect(r.status).toBe(200);
    expect(r.headers['content-type']).toBe(type);
    expect(r.headers['cache-control']).toBe(cache);
    expect(r.headers['content-security-policy']).toBe(contentSecurityPolicy());
    expect(r.headers['x-content-type-options']).toBe('nosniff');
    expect(r.headers.etag).toMatch(/^W\/"/);
  });

  it('answers 304 to a matching If-None-Match, HEAD without a body', async () => {
    const first = await get(app.port, '/');
    expect(first.body).toContain('Zaris Churn Lab');
    const again = await get(app.port, '/', { 'If-None-Match': String(first.headers.etag) });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    const head = await get(app.port, '/', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-length']).toBe(first.headers['content-length']);
  });

  it.each([
    '/../outside.txt',
    '/assets/../../outside.txt',
    '/assets%2F..%2F..%2Foutside.txt',
    '/..%5coutside.txt',
    '/.env',
    '/link.txt',
    '/missing.js',
    '/assets/',
  ])('never serves anything outside the root or hidden: %s', async (path) => {
    const r = await get(app.port, path);
    expect([400, 403, 404]).toContain(r.status);
    expect(r.body).not.toContain('outside the root');
    expect(r.body).not.toContain('SECRET');
  });

  it('survives request targets URL parsing chokes on, and never folds .. before checking', async () => {
    for (const path of ['//[', '/%', '//session', '/assets/..', 'http://evil.example/index.html']) {
      expect([400, 403, 404]).toContain((await get(app.port, path)).status);
    }
    for (const path of ['/?x=1#y', '/?a=%']) expect((await get(app.port, path)).status).toBe(200);
  });

  it('refuses other methods and other Host names (DNS rebinding)', async () => {
    const post = await get(app.port, '/', {}, 'POST', 'x');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
    for (const host of ['evil.example', `evil.example:${app.port}`, `127.0.0.1:${app.port + 1}`]) {
      expect((await get(app.port, '/', { Host: host })).status).toBe(403);
      expect((await get(app.port, '/session', { Host: host })).status).toBe(403);
    }
    expect((await get(app.port, '/', { Host: `localhost:${app.port}` })).status).toBe(200);
  });
});

describe('createAppServer: extensions', () => {
  it('GET /session gives this run\'s token to a same-origin page, nothing to another site', async () => {
    const r = await get(app.port, '/session', { 'Sec-Fetch-Site': 'same-origin' });
    expect(r.status).toBe(200);
    expect(r.headers['cache-control']).toBe('no-store');
    const s = serverSessionSchema.parse(JSON.parse(r.body));
    expect(s).toEqual({ token: app.session.token, extensions: ['session', 'csp-reports', 'real-engine'] });
    expect((await get(app.port, '/session', { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await get(app.port, '/session', { 'Sec-Fetch-Site': 'same-site' })).status).toBe(403);
  });

  it('POST /csp-report hands the violation on; junk is refused', async () => {
    const report = { 'csp-report': { 'document-uri': app.url, 'effective-directive': 'script-src-elem', 'blocked-uri': 'inline', 'source-file': `${app.url}assets/x.js`, 'line-number': 3 } };
    const r = await get(app.port, '/csp-report', { 'Content-Type': 'application/csp-report' }, 'POST', JSON.stringify(report));
    expect(r.status).toBe(204);
    expect(violations).toEqual([{ directive: 'script-src-elem', blocked: 'inline', source: `${app.url}assets/x.js:3` }]);
    expect((await get(app.port, '/csp-report', {}, 'POST', 'not json')).status).toBe(400);
    expect((await get(app.port, '/csp-report', {}, 'POST', 'x'.repeat(70_000))).status).toBe(413);
    expect((await get(app.port, '/csp-report')).status).toBe(405);
    expect(violations).toHaveLength(1);
  });

  it('an upgrade no extension takes is refused and closed; one an extension takes is its own', async () => {
    const upgrade = (port: number, path: string) =>
      new Promise<string>((ok, fail) => {
        const s = connect({ host: HOST, port }, () => s.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`));
        let text = '';
        s.setEncoding('utf8');
        s.on('data', (c: string) => (text += c));
        s.on('end', () => ok(text));
        s.on('error', fail);
      });
    expect(await upgrade(app.port, '/bridge')).toMatch(/^HTTP\/1.1 404/);
    const taken: string[] = [];
    const other = await createAppServer({
      distDir: dist,
      port: 0,
      extensions: [
        {
          name: 'echo',
          start: () => ({
            routes: { '/echo': (_req, res) => void res.end('echo route') },
            onUpgrade: (req, socket) => {
              if (req.url !== '/echo') return false;
              taken.push(req.url);
              socket.end('HTTP/1.1 101 Switching Protocols\r\n\r\ntaken');
              return true;
            },
          }),
        },
      ],
    });
    try {
      expect((await get(other.port, '/echo')).body).toBe('echo route');
      expect(await upgrade(other.port, '/echo')).toContain('taken');
      expect(await upgrade(other.port, '/other')).toMatch(/^HTTP\/1.1 404/);
      expect(taken).toEqual(['/echo']);
    } finally {
      await other.close();
    }
  });
});

describe('createAppServer: a failing extension', () => {
  it('answers 500 or drops the socket and keeps serving', async () => {
    const errors: unknown[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((...a: unknown[]) => void errors.push(a));
    const s = await createAppServer({
      distDir: dist,
      port: 0,
      extensions: [{ name: 'broken', start: () => ({ routes: { '/boom': () => { throw new Error('boom'); } }, onUpgrade: () => { throw new Error('boom'); } }) }],
    });
    try {
      expect((await get(s.port, '/boom')).status).toBe(500);
      const upgraded = await new Promise<string>((ok) => {
        const c = connect({ host: HOST, port: s.port }, () => c.write(`GET /x HTTP/1.1\r\nHost: 127.0.0.1:${s.port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`));
        c.on('close', () => ok('closed'));
        c.on('error', () => undefined);
      });
      expect(upgraded).toBe('closed');
      expect((await get(s.port, '/')).status).toBe(200);
      expect(errors).toHaveLength(2);
    } finally {
      spy.mockRestore();
      await s.close();
    }
  });
});

describe('createAppServer: ports and shutdown', () => {
  it('a port in use is a PortUnavailableError with one clear line', async () => {
    const e = await createAppServer({ distDir: dist, port: app.port }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(PortUnavailableError);
    expect((e as Error).message).toBe(`port ${app.port} on 127.0.0.1 is already in use (choose another with --port or PORT)`);
  });

  it('close() ends idle keep-alive connections and the port is free again', async () => {
    const s = await createAppServer({ distDir: dist, port: 0 });
    const port = s.port;
    await new Promise<void>((ok, fail) => {
      const req = request({ host: HOST, port, path: '/', headers: { Host: `127.0.0.1:${port}`, Connection: 'keep-alive' } }, (res) => {
        res.resume();
        res.on('end', ok);
      });
      req.on('error', fail);
      req.end();
    });
    await s.close();
    const probe = createServer();
    await new Promise<void>((ok, fail) => probe.once('error', fail).listen(port, HOST, ok));
    expect((probe.address() as AddressInfo).port).toBe(port);
    await new Promise<void>((ok) => probe.close(() => ok()));
  });
});
