/** `npm run dev` hosts the server extensions: a real Vite dev server with the plugin, on a free port. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createServer } from 'vite';
import { serverSessionSchema } from '../platform/serverSession.ts';
import { serverExtensions } from './registry.ts';
import { zarisServerExtensions } from './vitePlugin.ts';

const root = mkdtempSync(join(tmpdir(), 'zaris-dev-'));
writeFileSync(join(root, 'index.html'), '<!doctype html><title>dev</title>');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('zarisServerExtensions (Vite plugin)', { timeout: 30_000 }, () => {
  it('serves /session and an extension\'s route beside Vite\'s own pages', async () => {
    const server = await createServer({
      root,
      configFile: false,
      logLevel: 'silent',
      plugins: [
        zarisServerExtensions([
          ...serverExtensions(),
          { name: 'echo', start: () => ({ routes: { '/echo': (_req, res) => void res.end('echo route') } }) },
        ]),
      ],
      server: { host: '127.0.0.1', port: 0, strictPort: false, hmr: false, watch: null },
    });
    await server.listen();
    try {
      const base = server.resolvedUrls?.local[0] as string;
      const s = serverSessionSchema.parse(await (await fetch(new URL('/session', base))).json());
      expect(s.extensions).toEqual(['session', 'csp-reports', 'real-engine', 'echo']);
      expect(await (await fetch(new URL('/echo', base))).text()).toBe('echo route');
      expect(await (await fetch(base)).text()).toContain('<title>dev</title>');
    } finally {
      await server.close();
    }
  });
});
