import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { zarisServerExtensions } from './src/server/vitePlugin.ts';

/**
 * `vite build --mode e2e` is the test build (npm run build:e2e, used by the
 * e2e suite and the UI benchmarks): the production build plus the read-only
 * `window.__zarisLab` hook (src/ui/main.tsx), written to dist-e2e/ so it never
 * replaces the build `npm start` serves.
 */
export const TEST_BUILD_MODE = 'e2e';

export default defineConfig(({ mode }) => ({
  plugins: [react(), zarisServerExtensions()],
  // zod without eval in the browser (the production CSP forbids it): see src/platform/zodNoEval.ts
  resolve: { alias: [{ find: /^zod$/, replacement: fileURLToPath(new URL('./src/platform/zodNoEval.ts', import.meta.url)) }] },
  worker: { format: 'es' },
  server: { host: '127.0.0.1' },
  preview: { host: '127.0.0.1' },
  build: { target: 'es2022', sourcemap: true, outDir: mode === TEST_BUILD_MODE ? 'dist-e2e' : 'dist' },
}));
