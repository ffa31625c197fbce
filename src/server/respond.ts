import type { ServerResponse } from 'node:http';

/** a short plain-text answer (errors, refusals) */
export function sendText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>> = {}): void {
  res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/**
 * The path and the query of a request target, split as sent — never through
 * `new URL` (which throws on some targets a client can send, e.g. `//[`, and
 * would fold `..` before the path checks see it).
 */
export function splitTarget(url: string | undefined): { readonly pathname: string; readonly query: URLSearchParams } {
  const raw = url ?? '/';
  const q = raw.indexOf('?');
  const path = q < 0 ? raw : raw.slice(0, q);
  const hash = path.indexOf('#');
  return { pathname: hash < 0 ? path : path.slice(0, hash), query: new URLSearchParams(q < 0 ? '' : raw.slice(q + 1)) };
}
