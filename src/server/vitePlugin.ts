/**
 * `npm run dev` hosts the same server extensions as `npm start`
 * (extensions.ts): their routes go in front of Vite's middlewares and their
 * upgrade handlers on Vite's HTTP server, beside Vite's own HMR WebSocket
 * (an upgrade no extension takes is left to Vite). The dev server sends no
 * Content-Security-Policy: Vite's dev client and React Refresh inject inline
 * scripts; the policy is the production build's (csp.ts).
 */
import type { Plugin } from 'vite';
import { startExtensions, type ServerExtension } from './extensions.ts';
import { SERVER_EXTENSIONS } from './registry.ts';
import { createSession } from './session.ts';

export function zarisServerExtensions(extensions: readonly ServerExtension[] = SERVER_EXTENSIONS): Plugin {
  return {
    name: 'zaris-server-extensions',
    apply: 'serve',
    async configureServer(server) {
      const host = await startExtensions(extensions, createSession());
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
