/**
 * Content types by file extension for what `vite build` writes (and a few
 * neighbours). Anything else is served as application/octet-stream, which a
 * browser never runs or renders (the server also sends `nosniff`).
 */
export const MIME_TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
  '.wasm': 'application/wasm',
  '.ndjson': 'application/x-ndjson; charset=utf-8',
};

export const FALLBACK_MIME_TYPE = 'application/octet-stream';

/** the content type of a file path by its extension (case-insensitive) */
export function mimeTypeOf(path: string): string {
  const dot = path.lastIndexOf('.');
  const slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  if (dot <= slash + 1) return FALLBACK_MIME_TYPE; // no extension, or a dotfile
  return MIME_TYPES[path.slice(dot).toLowerCase()] ?? FALLBACK_MIME_TYPE;
}
