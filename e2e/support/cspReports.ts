/**
 * CSP violations reported to the e2e server (globalSetup.ts appends each
 * report the browser sends to `E2E_CSP_REPORTS`, one JSON line each — from
 * pages and workers alike, which the console does not show). The fixture
 * takes the new lines after each test and fails the test on any.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { describeViolation, type CspViolation } from '../../src/server/cspReports';

export function cspReportReader(file = process.env.E2E_CSP_REPORTS): () => string[] {
  let offset = file !== undefined && existsSync(file) ? statSync(file).size : 0;
  return () => {
    if (file === undefined || !existsSync(file)) return [];
    const buf = readFileSync(file);
    const fresh = buf.subarray(offset).toString('utf8');
    offset = buf.length;
    return fresh
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => describeViolation(JSON.parse(l) as CspViolation));
  };
}
