/**
 * The production server of `npm start`: the built app from `distDir` on
 * 127.0.0.1 only, with its Content-Security-Policy, cache headers, and the
 * server extensions (extensions.ts) in front of the static files.
 *
 *   const app = await createAppServer({ distDir: 'dist', port: 4173 });
 *   console.log(app.url); … await app.close();
 */
import { createReadStream } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve, sep } from 'node:path';
import { securityHeaders } from './csp.ts';
import { startExtensions, type ServerExtension } from './extensions.ts';
import { SERVER_EXTENSIONS } from './registry.ts';
import { sendText, splitTarget } from './respond.ts';
import { mimeTypeOf } from './mime.ts';
import { createSession, isAllowedHost, type AppSession } from './session.ts';
import { cacheControlFor, resolveStaticPath } from './staticPath.ts';

/** the one address the server listens on: never reachable from another machine */
export const HOST = '127.0.0.1';

export interface AppServerOptions {
  /** the built app (index.html and assets/) */
  readonly distDir: string;
  /** 0 picks a free port */
  readonly port: number;
  /** defaults to {@link SERVER_EXTENSIONS} */
  readonly extensions?: readonly ServerExtension[];
}

export interface AppServer {
  /** `http://127.0.0.1:<port>/` */
  readonly url: string;
  readonly port: number;
  readonly session: AppSession;
  /** the Node server (e.g. for an extension test that needs the raw 'upgrade' event) */
  readonly httpServer: Server;
  /** stops listening, ends open connections and the extensions; resolves when all is closed */
  close(): Promise<void>;
}

/** the port is taken by another process (or not ours to take) */
export class PortUnavailableError extends Error {
  constructor(
    readonly port: number,
    readonly code: string,
  ) {
    super(code === 'EADDRINUSE' ? `port ${port} on ${HOST} is already in use (choose another with --port or PORT)` : `cannot listen on ${HOST}:${port} (${code})`);
    this.name = 'PortUnavailableError';
  }
}

export async function createAppServer(options: AppServerOptions): Promise<AppServer> {
  const root = await realpath(resolve(options.distDir));
  const session = createSession();
  const extensions = await startExtensions(options.extensions ?? SERVER_EXTENSIONS, session);
  const headers = securityHeaders();

  const httpServer = createServer((req, res) => {
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    if (!isAllowedHost(req)) return sendText(res, 403, 'unknown Host: open the address the server printed');
    if (extensions.handleRequest(req, res)) return;
    serveStatic(root, req, res).catch(() => {
      if (!res.headersSent) sendText(res, 500, 'read error');
      else res.destroy();
    });
  });
  httpServer.on('upgrade', (req, socket, head) => {
    // an upgrade no extension takes is refused, never left hanging
    if (!extensions.handleUpgrade(req, socket, head)) {
      socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    }
  });
  httpServer.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
    else socket.destroy();
  });

  try {
    await new Promise<void>((ok, fail) => {
      httpServer.once('error', fail);
      httpServer.listen(options.port, HOST, () => {
        httpServer.off('error', fail);
        ok();
      });
    });
  } catch (e) {
    await extensions.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE' || code === 'EACCES') throw new PortUnavailableError(options.port, code);
    throw e;
  }
  const port = (httpServer.address() as AddressInfo).port;
  let closing: Promise<void> | null = null;
  return {
    url: `http://${HOST}:${port}/`,
    port,
    session,
    httpServer,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((ok) => httpServer.close(() => ok()));
        httpServer.closeAllConnections();
        // together: the HTTP server's close waits for upgraded sockets, which only their extension ends
        await Promise.all([closed, extensions.close()]);
      })();
      return closing;
    },
  };
}

async function serveStatic(root: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'GET and HEAD only', { Allow: 'GET, HEAD' });
  const target = resolveStaticPath(splitTarget(req.url).pathname);
  if (!target.ok) return sendText(res, target.status, target.reason);
  let path: string;
  try {
    // the real path, so a symlink inside the root cannot lead out of it
    path = await realpath(join(root, target.file));
  } catch {
    return sendText(res, 404, 'not found');
  }
  if (!path.startsWith(root + sep)) return sendText(res, 403, 'path leaves the root');
  const st = await stat(path);
  if (!st.isFile()) return sendText(res, 404, 'not found');
  const etag = `W/"${st.size.toString(16)}-${Math.trunc(st.mtimeMs).toString(16)}"`;
  res.setHeader('ETag', etag);
  res.setHeader('Cache-Control', cacheControlFor(target.file));
  res.setHeader('Last-Modified', st.mtime.toUTCString());
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304);
    res.end();
    return;
  }
  res.writeHead(200, { 'Content-Type': mimeTypeOf(path), 'Content-Length': st.size });
  if (req.method === 'HEAD') {
    res.end();
    return;
  }
  await new Promise<void>((ok, fail) => {
    const stream = createReadStream(path);
    stream.on('error', fail);
    res.on('close', ok);
    stream.pipe(res);
  });
}
