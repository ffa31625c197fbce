/**
 * The Content-Security-Policy of the production build, one directive per
 * entry with the reason it is what it is. Sent by `appServer.ts` on every
 * response (documents and worker scripts alike: a dedicated worker takes the
 * policy delivered with its own script).
 */
export const CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  // nothing loads from anywhere but this server unless a directive below says so
  'default-src': ["'self'"],
  // the built bundle only: no inline script, no eval (zod runs jitless, see src/platform/noEval.ts)
  'script-src': ["'self'"],
  // the node, client, control and replay workers are built files served from here
  'worker-src': ["'self'"],
  // Vite's CSS files, incl. lazily loaded chunks' <link>s; React and Recharts set styles through the
  // CSSOM (element.style), which CSP does not govern, so no 'unsafe-inline'
  'style-src': ["'self'"],
  // PNG export rasterises an SVG data: URL; downloads are blob: URLs
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  // fetches and WebSockets back to this server only ('self' covers ws:// to the same host and port)
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  // violations are reported to the server, which prints them (cspReports.ts)
  'report-uri': ['/csp-report'],
};

/** the header value */
export function contentSecurityPolicy(directives: Readonly<Record<string, readonly string[]>> = CSP_DIRECTIVES): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** headers every response carries (the policy plus the usual hardening for a local tool) */
export function securityHeaders(): Readonly<Record<string, string>> {
  return {
    'Content-Security-Policy': contentSecurityPolicy(),
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
  };
}
