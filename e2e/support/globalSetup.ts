import { preview, type PreviewServer } from 'vite';

let server: PreviewServer | null = null;

/** E2E_PORT moves the server (two checkouts can run their e2e suites side by side) */
const port = Number(process.env.E2E_PORT ?? 4179);

/** serves the production build on 127.0.0.1 for the e2e tests */
export async function setup(): Promise<void> {
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`E2E_PORT must be a port number (1–65535), got ${process.env.E2E_PORT}`);
  server = await preview({ preview: { host: '127.0.0.1', port, strictPort: true }, logLevel: 'warn' });
  process.env.E2E_BASE_URL = `http://127.0.0.1:${port}/`;
}

export async function teardown(): Promise<void> {
  await server?.close();
}
