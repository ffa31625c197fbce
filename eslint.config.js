// Lint rules that enforce the architecture (see src/core/README.md):
// the core is pure and deterministic; panels never import workers.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const timeAndRandom = [
  { name: 'setTimeout', message: 'The core is deterministic: use the injected Scheduler.' },
  { name: 'setInterval', message: 'The core is deterministic: use the injected Scheduler.' },
  { name: 'clearTimeout', message: 'The core is deterministic: use the injected Scheduler.' },
  { name: 'clearInterval', message: 'The core is deterministic: use the injected Scheduler.' },
  { name: 'setImmediate', message: 'The core is deterministic: use the injected Scheduler.' },
  { name: 'queueMicrotask', message: 'The core is deterministic: use the injected Scheduler.' },
  { name: 'requestAnimationFrame', message: 'The core knows nothing of the DOM.' },
  { name: 'Date', message: 'The core never reads real time: use Scheduler.now().' },
  { name: 'performance', message: 'The core never reads real time: use Scheduler.now().' },
  { name: 'window', message: 'The core knows nothing of the DOM.' },
  { name: 'document', message: 'The core knows nothing of the DOM.' },
  { name: 'self', message: 'The core knows nothing of workers.' },
  { name: 'postMessage', message: 'The core knows nothing of workers.' },
  { name: 'process', message: 'The core knows nothing of Node: pass values in.' },
];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-e2e/**', 'node_modules/**', 'coverage/**', 'test-results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: {
      'no-restricted-globals': ['error', ...timeAndRandom],
      'no-restricted-properties': [
        'error',
        { object: 'Math', property: 'random', message: 'The core is deterministic: use the seeded Rng (src/core/rng.ts).' },
        { object: 'Date', property: 'now', message: 'The core never reads real time: use Scheduler.now().' },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['react', 'react-dom', 'react/*', 'zustand', 'zustand/*', 'comlink', 'recharts'], message: 'The core is framework-free.' },
            { group: ['**/ui/**', '**/platform/**', '**/workers/**', '**/cli/**', 'node:*', 'fs', 'path'], message: 'The core depends on nothing outside src/core.' },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.recommended.rules,
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/workers/**'], message: 'Panels never import workers; go through the bridge (types only).', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    files: ['src/ui/panels/**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/workers/**', '**/bridge/**', '**/platform/**'], message: 'Panels only read the store through selectors.', allowTypeImports: true },
          ],
        },
      ],
    },
  },
  {
    files: ['workers/**/*.ts'],
    languageOptions: { globals: globals.worker },
  },
  {
    files: ['src/cli/**/*.ts', 'src/server/**/*.ts', 'src/engine/**/*.{ts,mjs}', 'bench/**/*.{ts,mjs}', 'e2e/**/*.ts', '*.config.{js,ts}', 'scripts/**/*.{js,ts,mjs}'],
    languageOptions: { globals: globals.node },
  },
);
