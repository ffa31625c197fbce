/**
 * Server extensions: what runs beside the static files on `npm start` and
 * `npm run dev` alike (`appServer.ts`, `vitePlugin.ts`). An extension is a
 * plain object in the registry (registry.ts); each server starts every one
 * once with the run's session and gets back its HTTP routes (exact paths,
 * answered before any static file), its upgrade handler (WebSocket) and its
 * close. The page learns which ones run, and the token they require, from
 * `GET /session` (src/platform/serverSession.ts).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { sendText, splitTarget } from './respond.ts';
import { isAllowedHost, type AppSession } from './session.ts';

export interface ExtensionContext {
  readonly session: AppSession;
  /** names of every extension this server runs (the page reads them from /session) */
  readonly extensionNames: readonly string[];
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ExtensionHandlers {
  /** pathname (no query) → handler, for any method; the Host was checked before */
  readonly routes?: Readonly<Record<string, RouteHandler>>;
  /**
   * an HTTP upgrade (WebSocket) whose Host was checked; return true when this
   * extension took the socket. Check the origin and token with
   * `refusalOf(req, session)` (session.ts) before accepting.
   */
  readonly onUpgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer) => boolean;
  /** ends what the extension started (called once, when the server closes) */
  readonly close?: () => void | Promise<void>;
}

export interface ServerExtension {
  readonly name: string;
  readonly start: (ctx: ExtensionContext) => ExtensionHandlers | Promise<ExtensionHandlers>;
}

/** the started extensions of one server, as the server calls them */
export interface ExtensionHost {
  /** true when an extension's route answered (or is answering) the request */
  handleRequest(req: IncomingMessage, res: ServerResponse): boolean;
  /** true when an extension took the upgraded socket */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean;
  close(): Promise<void>;
}

export async function startExtensions(extensions: readonly ServerExtension[], session: AppSession): Promise<ExtensionHost> {
  const names = extensions.map((e) => e.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup !== undefined) throw new Error(`two server extensions are named "${dup}"`);
  const started: ExtensionHandlers[] = [];
  for (const e of extensions) started.push(await e.start({ session, extensionNames: names }));
  const routes = new Map<string, RouteHandler>();
  for (const h of started) for (const [path, handler] of Object.entries(h.routes ?? {})) if (!routes.has(path)) routes.set(path, handler);
  return {
    handleRequest(req, res) {
      const handler = routes.get(splitTarget(req.url).pathname);
      if (handler === undefined) return false;
      if (!isAllowedHost(req)) {
        sendText(res, 403, 'unknown Host');
        return true;
      }
      // a failing extension answers 500; it never takes the server down
      new Promise<void>((ok) => ok(handler(req, res))).catch((e: unknown) => {
        if (!res.headersSent) sendText(res, 500, 'extension failed');
        else res.destroy();
        console.error(`server extension route ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
      });
      return true;
    },
    handleUpgrade(req, socket, head) {
      if (!isAllowedHost(req)) return false;
      try {
        return started.some((h) => h.onUpgrade?.(req, socket, head) === true);
      } catch (e) {
        socket.destroy();
        console.error(`server extension upgrade ${req.url}: ${e instanceof Error ? e.message : String(e)}`);
        return true;
      }
    },
    async close() {
      for (const h of started.reverse()) await h.close?.();
    },
  };
}
