import { appendFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createAppServer, type AppServer } from '../../src/server/appServer';
import { serverExtensions } from '../../src/server/registry';

let server: AppServer | null = null;
const reports = 'test-results/csp-violations.ndjson';

/** E2E_PORT moves the server (two checkouts can run their e2e suites side by side) */
const port = Number(process.env.E2E_PORT ?? 4179);
/** the test build (`npm run build:e2e`): the production build plus window.__zarisLab */
const distDir = process.env.E2E_DIST ?? 'dist-e2e';

/** serves the test build with the production server (its CSP included) on 127.0.0.1 for the e2e tests */
export async function setup(): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`E2E_PORT must be a port number (1–65535), got ${process.env.E2E_PORT}`);
  if (!existsSync(`${distDir}/index.html`)) throw new Error(`${distDir}/index.html is missing: run npm run build:e2e (the test build) first`);
  if (existsSync('dist/index.html') && statSync('dist/index.html').mtimeMs > statSync(`${distDir}/index.html`).mtimeMs) {
    console.warn(`[e2e] ${distDir}/ is older than dist/: the tests run the older test build (npm run build:e2e rebuilds it)`);
  }
  // every CSP violation report lands in a file the fixture reads after each test (support/cspReports.ts)
  mkdirSync('test-results', { recursive: true });
  rmSync(reports, { force: true });
  const onCspViolation = (v: unknown) => appendFileSync(reports, `${JSON.stringify(v)}\n`);
  server = await createAppServer({ distDir, port, extensions: serverExtensions({ onCspViolation }) });
  process.env.E2E_BASE_URL = server.url;
  process.env.E2E_CSP_REPORTS = reports;
}

export async function teardown(): Promise<void> {
  await server?.close();
  // files whose own checks do not read the reports still fail the run on a violation
  const lines = existsSync(reports) ? readFileSync(reports, 'utf8').split('\n').filter((l) => l !== '') : [];
  if (lines.length > 0) {
    // vitest reports a throw here but keeps exit code 0: fail the run explicitly
    console.error(`[e2e] FAILED: ${lines.length} CSP violation report(s) during the run (${reports}):\n${lines.join('\n')}`);
    process.exitCode = 1;
  }
}
