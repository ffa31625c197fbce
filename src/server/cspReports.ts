/**
 * `POST /csp-report`: where browsers send Content-Security-Policy violation
 * reports (the policy's `report-uri`, csp.ts) — from the page and from its
 * workers alike. Each report becomes one line on the server's stderr (so a
 * violation in `npm start` is visible in its terminal) and goes to `onReport`
 * (the e2e suite fails a test whose page violated the policy).
 */
import type { IncomingMessage } from 'node:http';
import type { ServerExtension } from './extensions.ts';
import { sendText } from './respond.ts';

export const CSP_REPORT_PATH = '/csp-report';

/** one violation, as the tests and the log line name it */
export interface CspViolation {
  readonly directive: string;
  readonly blocked: string;
  /** the document or worker script, and where in it when the browser says */
  readonly source: string;
}

/** a report-uri body is a few hundred bytes; anything far larger is not a report */
const MAX_BODY = 64 * 1024;

/** the violation in a `report-uri` body (`{"csp-report": {...}}`), or null when it is not one */
export function violationOf(body: unknown): CspViolation | null {
  const r = (body as { 'csp-report'?: Record<string, unknown> } | null)?.['csp-report'];
  if (typeof r !== 'object' || r === null) return null;
  const str = (k: string): string => (typeof r[k] === 'string' || typeof r[k] === 'number' ? String(r[k]) : '');
  const where = str('source-file') || str('document-uri');
  const line = str('line-number');
  return {
    directive: str('effective-directive') || str('violated-directive') || '?',
    blocked: str('blocked-uri') || '?',
    source: line ? `${where}:${line}` : where,
  };
}

export function describeViolation(v: CspViolation): string {
  return `CSP violation: ${v.directive} blocked ${v.blocked} (in ${v.source || 'unknown source'})`;
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export function cspReportsExtension(onReport: (v: CspViolation) => void = (v) => console.error(describeViolation(v))): ServerExtension {
  return {
    name: 'csp-reports',
    start: () => ({
      routes: {
        [CSP_REPORT_PATH]: async (req, res) => {
          if (req.method !== 'POST') return sendText(res, 405, 'POST only', { Allow: 'POST' });
          const text = await readBody(req);
          if (text === null) return sendText(res, 413, 'too large for a report');
          let v: CspViolation | null;
          try {
            v = violationOf(JSON.parse(text));
          } catch {
            v = null;
          }
          if (v === null) return sendText(res, 400, 'not a CSP report');
          onReport(v);
          res.writeHead(204);
          res.end();
        },
      },
    }),
  };
}
