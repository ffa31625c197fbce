/**
 * `npm run dev` hosts the same server extensions as `npm start`
 * (extensions.ts): their routes go in front of Vite's middlewares and their
 * upgrade handlers on Vite's HTTP server, beside Vite's own HMR WebSocket
 * (an upgrade no extension takes is left to Vite). The dev server sends no
 * Content-Security-Policy: Vite's dev client and React Refresh inject inline
 * scripts; the policy is the production build's (csp.ts).
 */
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { startExtensions, type ServerExtension } from './extensions.ts';
import type * as Registry from './registry.ts';
import { createSession } from './session.ts';

/** `extensions` default: the registry (registry.ts) */
export function zarisServerExtensions(extensions?: readonly ServerExtension[]): Plugin {
  return {
    name: 'zaris-server-extensions',
    apply: 'serve',
    async configureServer(server) {
      // The registry is loaded through Vite's own module loader, not bundled into the config: the
      // extensions reach into the core and the engine, whose extension-less imports Vite's coming
      // native config loader refuses (and warns about today).
      const list = extensions ?? ((await server.ssrLoadModule(fileURLToPath(new URL('./registry.ts', import.meta.url)))) as typeof Registry).SERVER_EXTENSIONS;
      const host = await startExtensions(list, createSession());
      server.middlewares.use((req, res, next) => {
        if (!host.handleRequest(req, res)) next();
      });
      server.httpServer?.on('upgrade', (req, socket, head) => {
        host.handleUpgrade(req, socket, head);
      });
      server.httpServer?.on('close', () => void host.close());
    },
  };
}
