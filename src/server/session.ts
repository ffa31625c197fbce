/**
 * The server run's session: one random token, shown to pages of this origin
 * at `GET /session` and required by extensions that act for the page. Also
 * the Host and Origin checks that make "this origin" mean something: the
 * server answers only requests addressed to 127.0.0.1:<port> or
 * localhost:<port> (a DNS-rebinding page's Host is its own name, so it can
 * neither read the token nor reach an extension).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { splitTarget } from './respond.ts';

export interface AppSession {
  /** 32 random bytes, base64url: the secret the page presents to extensions */
  readonly token: string;
}

export function createSession(): AppSession {
  return { token: randomBytes(32).toString('base64url') };
}

/** the Host header values this server answers to, for the port the request came in on */
export function allowedHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** the port the request arrived on (the listening socket's), whatever server it is */
function localPortOf(req: IncomingMessage): number {
  return req.socket.localPort ?? -1;
}

/** true when the request is addressed to this server by a name it answers to */
export function isAllowedHost(req: IncomingMessage): boolean {
  const host = req.headers.host;
  return host !== undefined && allowedHosts(localPortOf(req)).includes(host.toLowerCase());
}

/** true when the request was made by a page of this server (the Origin header browsers send on WebSocket and fetch) */
export function isOwnOrigin(req: IncomingMessage): boolean {
  const origin = req.headers.origin;
  return origin !== undefined && allowedHosts(localPortOf(req)).some((h) => origin.toLowerCase() === `http://${h}`);
}

/** constant-time comparison of a presented token with the session's */
export function tokenMatches(session: AppSession, presented: string | null | undefined): boolean {
  if (typeof presented !== 'string') return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(session.token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * For an extension's upgrade or request handler: null if the request comes
 * from this server's own page with the session token (`?token=` in its URL),
 * else the reason to refuse it.
 */
export function refusalOf(req: IncomingMessage, session: AppSession): string | null {
  if (!isAllowedHost(req)) return `Host ${JSON.stringify(req.headers.host ?? '')} is not this server`;
  if (!isOwnOrigin(req)) return `Origin ${JSON.stringify(req.headers.origin ?? '')} is not this server's page`;
  const token = splitTarget(req.url).query.get('token');
  if (!tokenMatches(session, token)) return 'missing or wrong session token';
  return null;
}
