import { describe, expect, it } from 'vitest';
import { FALLBACK_MIME_TYPE, mimeTypeOf } from './mime.ts';
import { cacheControlFor, resolveStaticPath } from './staticPath.ts';

describe('resolveStaticPath', () => {
  it.each([
    ['/', 'index.html'],
    ['/index.html', 'index.html'],
    ['/assets/index-BoE5CQYd.js', 'assets/index-BoE5CQYd.js'],
    ['/assets//x.css', 'assets/x.css'],
    ['/favicon.svg', 'favicon.svg'],
    ['/docs/', 'docs/index.html'],
    ['/a%20b.png', 'a b.png'],
    ['/name..with..dots.js', 'name..with..dots.js'],
  ])('%s → %s', (url, file) => {
    expect(resolveStaticPath(url)).toEqual({ ok: true, file });
  });

  it.each([
    ['/../package.json', 403],
    ['/assets/../../package.json', 403],
    ['/assets%2F..%2F..%2Fpackage.json', 403],
    ['/%2e%2e/%2e%2e/etc/passwd', 403],
    ['/..%5c..%5cpackage.json', 403],
    ['/assets\\..\\secret', 403],
    ['/.git/config', 403],
    ['/.env', 403],
    ['/./index.html', 403],
    ['/x%00.js', 400],
    ['/%E0%A4%A', 400],
    ['relative.js', 400],
  ])('refuses %s (%i)', (url, status) => {
    const r = resolveStaticPath(url);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.status).toBe(status);
  });
});

describe('cacheControlFor', () => {
  it('hashed assets are immutable, everything else revalidates', () => {
    expect(cacheControlFor('assets/index-BoE5CQYd.js')).toBe('public, max-age=31536000, immutable');
    expect(cacheControlFor('index.html')).toBe('no-cache');
    expect(cacheControlFor('favicon.svg')).toBe('no-cache');
  });
});

describe('mimeTypeOf', () => {
  it.each([
    ['index.html', 'text/html; charset=utf-8'],
    ['assets/index-x.js', 'text/javascript; charset=utf-8'],
    ['assets/client.worker-x.js', 'text/javascript; charset=utf-8'],
    ['assets/index-x.css', 'text/css; charset=utf-8'],
    ['assets/index-x.js.map', 'application/json; charset=utf-8'],
    ['favicon.svg', 'image/svg+xml'],
    ['docs/shot.PNG', 'image/png'],
    ['font.woff2', 'font/woff2'],
  ])('%s → %s', (file, type) => {
    expect(mimeTypeOf(file)).toBe(type);
  });

  it('unknown, missing and dotfile extensions are octet-stream (never run or rendered)', () => {
    for (const f of ['x.exe', 'README', 'assets/.hidden', 'dir.d/file']) expect(mimeTypeOf(f)).toBe(FALLBACK_MIME_TYPE);
  });
});
