/**
 * URL path → file inside the served directory, or a refusal. Pure string work
 * (no file system), so every refusal is unit-tested: the only files served
 * are ones whose normalised path stays inside the root, with no dot segment
 * (`.git`, `..`), no backslash, no NUL and no malformed percent-escape.
 * (`appServer.ts` then checks the real path too, so a symlink cannot lead out.)
 */
import { posix } from 'node:path';

export type StaticPath =
  | { readonly ok: true; /** relative to the root, '/'-separated, e.g. `assets/index-abc.js` */ readonly file: string }
  | { readonly ok: false; readonly status: 400 | 403 | 404; readonly reason: string };

/** the file a request path names (`/` and any `…/` → `index.html` in that folder) */
export function resolveStaticPath(urlPath: string): StaticPath {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return { ok: false, status: 400, reason: 'malformed percent-escape' };
  }
  if (!decoded.startsWith('/')) return { ok: false, status: 400, reason: 'path must start with /' };
  if (decoded.includes('\0')) return { ok: false, status: 400, reason: 'NUL in path' };
  // a backslash is a separator on Windows and never appears in a built asset's name
  if (decoded.includes('\\')) return { ok: false, status: 403, reason: 'backslash in path' };
  const segments = decoded.split('/').slice(1);
  if (segments.some((s) => s.startsWith('.'))) return { ok: false, status: 403, reason: 'dot segment (.., . or a dotfile) in path' };
  const normal = posix.normalize(decoded);
  // after the checks above normalize can only fold repeated slashes; the check keeps it honest
  if (!normal.startsWith('/') || normal.split('/').includes('..')) return { ok: false, status: 403, reason: 'path leaves the root' };
  const file = normal.endsWith('/') ? `${normal}index.html` : normal;
  return { ok: true, file: file.slice(1) };
}

/**
 * Cache policy: Vite writes content-hashed names under `assets/` (a changed
 * file gets a new name), so those are immutable for a year; everything else
 * (index.html above all, which names the current assets) is revalidated on
 * every load with its ETag.
 */
export function cacheControlFor(file: string): string {
  return file.startsWith('assets/') ? 'public, max-age=31536000, immutable' : 'no-cache';
}
