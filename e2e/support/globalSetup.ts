import { preview, type PreviewServer } from 'vite';

let server: PreviewServer | null = null;

/** serves the production build on 127.0.0.1 for the e2e tests */
export async function setup(): Promise<void> {
  server = await preview({ preview: { host: '127.0.0.1', port: 4179, strictPort: true }, logLevel: 'warn' });
  process.env.E2E_BASE_URL = 'http://127.0.0.1:4179/';
}

export async function teardown(): Promise<void> {
  await server?.close();
}
