/**
 * What `import … from 'zod'` means in the browser build and the dev server
 * (vite.config.ts aliases 'zod' here): zod itself, told never to compile
 * parsers with `new Function`. The production Content-Security-Policy
 * (src/server/csp.ts) allows no eval, and zod decides whether to compile when
 * a schema is constructed, so the setting must be in place before any module
 * builds a schema. Every such module imports 'zod', i.e. this module, so its
 * body runs before theirs whatever order the bundler gives unrelated modules.
 * (Node — the CLI, the tests — keeps zod's compiled parsers.)
 */
import { config } from 'zod/v4';

config({ jitless: true });

export * from 'zod/v4';
