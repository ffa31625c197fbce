/**
 * `npm start` / `npm run preview` options: `--port N` (or `PORT`), `--dist DIR`,
 * `--build`. Bad input is an {@link InputError} naming the field and the
 * allowed values; start.ts prints it as one line and exits 2.
 */
import { z } from 'zod';
import { InputError, issuesOf, type InputIssue } from '../core/validation.ts';

export const DEFAULT_PORT = 4173;

const portSchema = z
  .string()
  .regex(/^\d{1,5}$/, 'must be a whole number 0–65535 (0 = any free port)')
  .transform(Number)
  .pipe(z.number().int().min(0, 'must be 0–65535 (0 = any free port)').max(65535, 'must be 0–65535 (0 = any free port)'));

export interface ServerOptions {
  readonly port: number;
  readonly distDir: string;
  /** run `vite build` first (npm start) */
  readonly build: boolean;
}

export const USAGE = 'usage: npm start [-- --port N]   (or PORT=N npm start; N is 0–65535, 0 = any free port)\n       tsx src/server/start.ts [--port N] [--dist DIR] [--build]';

/** reads argv (without node and the script) and the environment; throws InputError on bad input */
export function parseServerOptions(argv: readonly string[], env: NodeJS.ProcessEnv): ServerOptions | 'help' {
  let portText: { value: string; field: string } | null = env.PORT === undefined || env.PORT === '' ? null : { value: env.PORT, field: 'PORT' };
  let distDir = 'dist';
  let build = false;
  const issues: InputIssue[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = (): string | null => {
      if (inline !== undefined) return inline;
      const v = argv[i + 1];
      if (v === undefined || v.startsWith('--')) {
        issues.push({ path: flag, message: 'needs a value' });
        return null;
      }
      i++;
      return v;
    };
    if (flag === '--help' || flag === '-h') return 'help';
    else if (flag === '--build' && inline === undefined) build = true;
    else if (flag === '--port') {
      const v = value();
      if (v !== null) portText = { value: v, field: '--port' }; // the flag wins over PORT
    } else if (flag === '--dist') {
      const v = value();
      if (v !== null) distDir = v;
    } else issues.push({ path: arg, message: 'unknown option (allowed: --port N, --dist DIR, --build, --help)' });
  }
  let port = DEFAULT_PORT;
  if (portText !== null) {
    const r = portSchema.safeParse(portText.value);
    if (r.success) port = r.data;
    else issues.push(...issuesOf(r.error, portText.field).map((x) => ({ path: portText.field, message: `${x.message}, got ${JSON.stringify(portText.value)}` })));
  }
  if (issues.length > 0) throw new InputError('server options', issues);
  return { port, distDir, build };
}
