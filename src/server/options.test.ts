import { describe, expect, it } from 'vitest';
import { InputError } from '../core/validation.ts';
import { DEFAULT_PORT, parseServerOptions } from './options.ts';

const messageOf = (argv: string[], env: NodeJS.ProcessEnv = {}): string => {
  try {
    parseServerOptions(argv, env);
  } catch (e) {
    if (e instanceof InputError) return e.message;
    throw e;
  }
  throw new Error('no error');
};

describe('parseServerOptions', () => {
  it('defaults: port 4173, dist/, no build', () => {
    expect(parseServerOptions([], {})).toEqual({ port: DEFAULT_PORT, distDir: 'dist', build: false });
  });

  it('reads --port N, --port=N, PORT, --dist and --build; the flag wins over PORT', () => {
    expect(parseServerOptions(['--port', '4310'], {})).toMatchObject({ port: 4310 });
    expect(parseServerOptions(['--port=0'], {})).toMatchObject({ port: 0 });
    expect(parseServerOptions([], { PORT: '4311' })).toMatchObject({ port: 4311 });
    expect(parseServerOptions(['--port', '4312'], { PORT: 'junk' })).toMatchObject({ port: 4312 });
    expect(parseServerOptions(['--build', '--dist', 'out'], {})).toEqual({ port: DEFAULT_PORT, distDir: 'out', build: true });
    expect(parseServerOptions(['--help'], {})).toBe('help');
  });

  it.each(['abc', '-1', '70000', '65536', '1.5', '0x10', ' 80', '123456'])('--port %j: one line naming the field and the allowed values', (v) => {
    const m = messageOf(['--port', v]);
    expect(m).toBe(`server options: --port: ${Number(v) > 65535 && /^\d{1,5}$/.test(v) ? 'must be 0–65535 (0 = any free port)' : 'must be a whole number 0–65535 (0 = any free port)'}, got ${JSON.stringify(v)}`);
    expect(m).not.toContain('\n');
  });

  it('a bad PORT is named as PORT', () => {
    expect(messageOf([], { PORT: 'http' })).toBe('server options: PORT: must be a whole number 0–65535 (0 = any free port), got "http"');
  });

  it('an empty PORT means unset', () => {
    expect(parseServerOptions([], { PORT: '' })).toMatchObject({ port: DEFAULT_PORT });
  });

  it('unknown options and missing values are named, all in one line', () => {
    expect(messageOf(['--host', '0.0.0.0'])).toBe('server options: --host: unknown option (allowed: --port N, --dist DIR, --build, --help); 0.0.0.0: unknown option (allowed: --port N, --dist DIR, --build, --help)');
    expect(messageOf(['--port'])).toBe('server options: --port: needs a value');
    expect(messageOf(['--dist', '--build'])).toBe('server options: --dist: needs a value');
  });
});
