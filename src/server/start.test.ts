/**
 * `src/server/start.ts` as a real process (what `npm start` and `npm run
 * preview` run, without the build): options, exit codes, the printed URL,
 * shutdown on SIGTERM and SIGINT.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const tmp = mkdtempSync(join(tmpdir(), 'zaris-start-'));
const dist = join(tmp, 'dist');
mkdirSync(dist);
writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Zaris Churn Lab</title>');
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const env = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => {
  const e = { ...process.env, ...extra };
  if (!('PORT' in extra)) delete e.PORT;
  return e;
};

function run(args: readonly string[], extra: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/start.ts', ...args], { cwd: ROOT, env: env(extra), encoding: 'utf8', timeout: 30_000 });
  if (r.error) throw r.error;
  return r;
}

describe('start.ts', { timeout: 30_000 }, () => {
  it('a bad --port or PORT: exit 2, one line naming the field and the allowed values', () => {
    const a = run(['--dist', dist, '--port', 'abc']);
    expect(a.status).toBe(2);
    expect(a.stderr).toBe('server options: --port: must be a whole number 0–65535 (0 = any free port), got "abc"\n');
    const b = run(['--dist', dist], { PORT: '99999' });
    expect(b.status).toBe(2);
    expect(b.stderr).toBe('server options: PORT: must be 0–65535 (0 = any free port), got "99999"\n');
  });

  it('a missing build: exit 1 with what to run', () => {
    const r = run(['--dist', join(tmp, 'nothing'), '--port', '0']);
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    expect(r.stderr).toContain('index.html is missing: build the app first (npm run build), or run npm start');
  });

  it('a port in use: exit 1, one line', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((ok) => blocker.listen(0, '127.0.0.1', ok));
    const port = (blocker.address() as { port: number }).port;
    try {
      const r = run(['--dist', dist, '--port', String(port)]);
      expect(r.status).toBe(1);
      expect(r.stderr).toBe(`port ${port} on 127.0.0.1 is already in use (choose another with --port or PORT)\n`);
    } finally {
      await new Promise<void>((ok) => blocker.close(() => ok()));
    }
  });

  it.each(['SIGTERM', 'SIGINT'] as const)('prints the URL, serves, and exits 0 on %s', async (signal) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/start.ts', '--dist', dist, '--port', '0'], { cwd: ROOT, env: env(), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
    const url = await new Promise<string>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`no URL printed; stdout: ${out}`)), 20_000);
      child.stdout.on('data', () => {
        const m = /served at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(out);
        if (m) {
          clearTimeout(timer);
          ok(m[1] as string);
        }
      });
    });
    const page = await fetch(url);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('<title>Zaris Churn Lab</title>');
    const code = new Promise<number | null>((ok) => child.on('exit', (c) => ok(c)));
    child.kill(signal);
    expect(await code).toBe(0);
    expect(out).toContain(`${signal}: stopping the server`);
    await expect(fetch(url)).rejects.toThrow();
  }, 30_000);
});
