/**
 * `npm start` (= `tsx src/server/start.ts --build`): builds the app with Vite,
 * then serves dist/ on http://127.0.0.1:<port>/ and prints that URL.
 * `npm run preview` serves the existing build without building.
 *
 * Exit codes: 0 after SIGINT/SIGTERM (the server closed cleanly), 1 when the
 * port is taken, the build fails or dist/ has no index.html, 2 on bad options
 * (one line naming the field and the allowed values).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../core/validation.ts';
import { createAppServer, PortUnavailableError } from './appServer.ts';
import { parseServerOptions, USAGE } from './options.ts';

async function main(): Promise<number> {
  let options;
  try {
    options = parseServerOptions(process.argv.slice(2), process.env);
  } catch (e) {
    if (e instanceof InputError) {
      console.error(e.message);
      return 2;
    }
    throw e;
  }
  if (options === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (options.build) {
    const t0 = performance.now();
    console.log('building the app (vite build)…');
    // imported here: `npm run preview` never loads Vite
    const { build } = await import('vite');
    // the fast build whatever the caller's shell says: a NODE_ENV of development or test would
    // give React's development bundle
    process.env.NODE_ENV = 'production';
    try {
      await build({
        mode: 'production',
        logLevel: 'warn',
        // a user of npm start can act on neither the chunk-size advice nor the bundler's timing
        // report (npm run build still prints both for developers)
        build: { outDir: options.distDir, chunkSizeWarningLimit: Number.POSITIVE_INFINITY, rolldownOptions: { checks: { bundlerTimings: false } } },
      });
    } catch {
      // Vite has printed the error
      console.error('the build failed (see above)');
      return 1;
    }
    console.log(`built ${options.distDir}/ in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  if (!existsSync(join(options.distDir, 'index.html'))) {
    console.error(`${options.distDir}/index.html is missing: build the app first (npm run build), or run npm start`);
    return 1;
  }
  let server;
  try {
    server = await createAppServer({ distDir: options.distDir, port: options.port });
  } catch (e) {
    if (e instanceof PortUnavailableError) {
      console.error(e.message);
      return 1;
    }
    throw e;
  }
  console.log(`Zaris Churn Lab is served at ${server.url}  (Ctrl+C stops it)`);
  const stop = server;
  return new Promise<number>((done) => {
    const shutdown = (signal: NodeJS.Signals) => {
      console.log(`${signal}: stopping the server`);
      void stop.close().then(() => done(0));
    };
    process.once('SIGINT', shutdown);
    process.once('SIGTERM', shutdown);
  });
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`server failed: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
