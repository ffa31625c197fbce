/** Configuration (SPEC §7): defaults, environment values, and input validation. */
import { describe, expect, it } from 'vitest';
import { InputError } from '../validation';
import { attemptBudget, DEFAULT_CLIENT_CONFIG, ENV_NAMES, NO_BUGS, resolveClientConfig } from './config';
import { cfg } from './testkit/harness';

/** the InputError `fn` throws (fails the test if it throws nothing else) */
function inputErrorOf(fn: () => unknown): InputError {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return error as InputError;
  }
  throw new Error('expected an InputError, nothing was thrown');
}

describe('defaults', () => {
  it('match SPEC §7', () => {
    expect(DEFAULT_CLIENT_CONFIG).toMatchObject({
      maxAttempts: 3,
      backoffMillis: 100,
      operationTimeoutMs: 60_000,
      disableRetries: false,
      refreshWaitBudgetMs: 15_000,
      refreshDebounceMs: 500,
    });
    expect(DEFAULT_CLIENT_CONFIG.bugs).toEqual(NO_BUGS);
    expect(Object.values(NO_BUGS).every((v) => v === false)).toBe(true);
    expect(resolveClientConfig()).toEqual(DEFAULT_CLIENT_CONFIG);
  });

  it('environment names', () => {
    expect(ENV_NAMES).toEqual({
      requestTimeout: 'ZARIS_REQUEST_TIMEOUT',
      disableRetries: 'ZARIS_DISABLE_RETRIES',
      refreshWaitMs: 'ZARIS_CLIENT_MAP_REFRESH_WAIT_MS',
    });
  });
});

describe('ZARIS_REQUEST_TIMEOUT', () => {
  it.each([
    ['60', 60_000],
    ['0.5', 500],
    ['250ms', 250],
    ['2s', 2000],
    ['1m', 60_000],
    ['1.5m', 90_000],
    [' 30 ', 30_000],
    ['infinite', null],
    ['INFINITE', null],
  ] as const)('%j → %s', (value, expected) => {
    expect(resolveClientConfig({}, { ZARIS_REQUEST_TIMEOUT: value }).operationTimeoutMs).toBe(expected);
  });

  it.each(['0', '0ms', '0.0s'])('%j (a deadline of 0: every operation fails before its first attempt) is rejected, naming the variable', (value) => {
    const error = inputErrorOf(() => resolveClientConfig({}, { ZARIS_REQUEST_TIMEOUT: value }));
    expect(error.issues.map((i) => i.path)).toEqual(['ZARIS_REQUEST_TIMEOUT']);
    expect(error.message).toContain('a deadline of 0 fails every operation before its first attempt: give at least "1ms"');
  });

  it.each(['abc', '-1', '5h', '1.5.2', 'ms', '1e3', 'infinity'])('%j is rejected, naming the variable and the allowed forms', (value) => {
    const error = inputErrorOf(() => resolveClientConfig({}, { ZARIS_REQUEST_TIMEOUT: value }));
    expect(error.issues.map((i) => i.path)).toEqual(['ZARIS_REQUEST_TIMEOUT']);
    expect(error.message).toContain('ZARIS_REQUEST_TIMEOUT');
    expect(error.message).toContain(`"${value}"`);
    for (const form of ['ms', '"infinite"', 'seconds', '<n>s', '<n>m']) expect(error.message).toContain(form);
  });

  it.each(['0.4ms', '0.0004', '0.000001m'])('%j (a positive deadline that would round to 0 ms, failing every operation) is rejected', (value) => {
    const error = inputErrorOf(() => resolveClientConfig({}, { ZARIS_REQUEST_TIMEOUT: value }));
    expect(error.issues).toEqual([{ path: 'ZARIS_REQUEST_TIMEOUT', message: `rounds to 0 ms, where no attempt can run: the deadline counts whole ms (at least "1ms"; "infinite" disables it); got "${value}"` }]);
  });

  it('an empty or unset variable keeps the configured value', () => {
    expect(resolveClientConfig({ operationTimeoutMs: 5000 }, { ZARIS_REQUEST_TIMEOUT: '' }).operationTimeoutMs).toBe(5000);
    expect(resolveClientConfig({ operationTimeoutMs: 5000 }, {}).operationTimeoutMs).toBe(5000);
  });
});

describe('ZARIS_DISABLE_RETRIES', () => {
  it.each([
    ['true', true, 1],
    ['false', false, 3],
    ['True', true, 1],
  ] as const)('%j → disableRetries %s, attempt budget %i', (value, disabled, budget) => {
    const c = resolveClientConfig({}, { ZARIS_DISABLE_RETRIES: value });
    expect(c.disableRetries).toBe(disabled);
    expect(attemptBudget(c)).toBe(budget);
  });

  it.each(['yes', '1', 'on'])('%j is rejected, naming the variable', (value) => {
    const error = inputErrorOf(() => resolveClientConfig({}, { ZARIS_DISABLE_RETRIES: value }));
    expect(error.issues.map((i) => i.path)).toEqual(['ZARIS_DISABLE_RETRIES']);
    expect(error.message).toMatch(/ZARIS_DISABLE_RETRIES.*"true" or "false"/);
  });
});

describe('misspelled ZARIS_* names', () => {
  it('are refused, naming the variable and the names the client reads (a misspelling would be ignored silently)', () => {
    const error = inputErrorOf(() => resolveClientConfig({}, { ZARIS_DISABLE_RETRY: 'true', ZARIS_REQUEST_TIMEOUT_MS: '5000' }));
    expect(error.issues.map((i) => i.path)).toEqual(['ZARIS_DISABLE_RETRY', 'ZARIS_REQUEST_TIMEOUT_MS']);
    expect(error.message).toContain('ZARIS_DISABLE_RETRY: is not a setting (the client reads ZARIS_REQUEST_TIMEOUT, ZARIS_DISABLE_RETRIES, ZARIS_CLIENT_MAP_REFRESH_WAIT_MS)');
  });

  it('a known name in another case is named as such (environment names are case-sensitive: it was ignored silently)', () => {
    const error = inputErrorOf(() => resolveClientConfig({}, { zaris_request_timeout: '2s', Zaris_Nope: '1' }));
    expect(error.issues.map((i) => `${i.path}: ${i.message}`)).toEqual([
      'Zaris_Nope: is not a setting (the client reads ZARIS_REQUEST_TIMEOUT, ZARIS_DISABLE_RETRIES, ZARIS_CLIENT_MAP_REFRESH_WAIT_MS); unset it or fix its name',
      'zaris_request_timeout: is not a setting: names are case-sensitive, so nothing reads it (the client reads ZARIS_REQUEST_TIMEOUT, ZARIS_DISABLE_RETRIES, ZARIS_CLIENT_MAP_REFRESH_WAIT_MS); rename it ZARIS_REQUEST_TIMEOUT',
    ]);
  });

  it("the test suites' own names and other programs' variables pass", () => {
    expect(resolveClientConfig({}, { ZARIS_PROPERTY_RUNS: '5000', ZARIS_PROPERTY_SEED: '7', PATH: '/bin', ZARISX: '1' }).maxAttempts).toBe(3);
  });
});

describe('ZARIS_CLIENT_MAP_REFRESH_WAIT_MS', () => {
  it.each([
    ['15000', 15_000],
    ['0', 0],
    ['250', 250],
  ] as const)('%j → %i ms', (value, expected) => {
    expect(resolveClientConfig({}, { ZARIS_CLIENT_MAP_REFRESH_WAIT_MS: value }).refreshWaitBudgetMs).toBe(expected);
  });

  it.each(['-5', '1.5', 'abc', '2s'])('%j is rejected, naming the variable', (value) => {
    const error = inputErrorOf(() => resolveClientConfig({}, { ZARIS_CLIENT_MAP_REFRESH_WAIT_MS: value }));
    expect(error.issues.map((i) => i.path)).toEqual(['ZARIS_CLIENT_MAP_REFRESH_WAIT_MS']);
    expect(error.message).toContain('ZARIS_CLIENT_MAP_REFRESH_WAIT_MS');
    expect(error.message).toContain('milliseconds');
  });
});

describe('configuration input', () => {
  it('a partial input overrides only what it names', () => {
    expect(resolveClientConfig({ maxAttempts: 7, backoffMillis: 20 })).toEqual(cfg({ maxAttempts: 7, backoffMillis: 20 }));
  });

  it.each([
    ['infinite', null],
    [null, null],
    [1234, 1234],
    [1, 1],
  ] as const)('operationTimeoutMs %j → %s', (value, expected) => {
    expect(resolveClientConfig({ operationTimeoutMs: value }).operationTimeoutMs).toBe(expected);
  });

  it('operationTimeoutMs 0 is refused (it failed every operation as Timeout, while 0.4 ms was refused for the same reason)', () => {
    const error = inputErrorOf(() => resolveClientConfig({ operationTimeoutMs: 0 }));
    expect(error.issues.map((i) => i.path)).toEqual(['operationTimeoutMs']);
    expect(error.message).toContain('operationTimeoutMs must be ≥ 1 ms');
  });

  it('bug toggles merge partially over the base', () => {
    const base = cfg({ bugs: { unclampedBackoff: true } });
    const c = resolveClientConfig({ bugs: { retryConflict: true } }, {}, base);
    expect(c.bugs).toEqual({ ...NO_BUGS, unclampedBackoff: true, retryConflict: true });
    expect(resolveClientConfig({ bugs: {} }, {}, base).bugs).toEqual(base.bugs);
  });

  it('an unknown field is rejected, naming it', () => {
    const error = inputErrorOf(() => resolveClientConfig({ maxAtempts: 3 }));
    expect(error.message).toContain('maxAtempts');
    expect(error.message).toMatch(/unknown field/);
  });

  it('an unknown bug toggle is rejected, naming it', () => {
    const error = inputErrorOf(() => resolveClientConfig({ bugs: { retryConflicts: true } }));
    expect(error.message).toContain('retryConflicts');
  });

  it.each([
    [{ maxAttempts: 0 }, 'maxAttempts', '≥ 1'],
    [{ maxAttempts: 1.5 }, 'maxAttempts', 'whole number'],
    [{ maxAttempts: '3' }, 'maxAttempts', ''],
    [{ backoffMillis: -1 }, 'backoffMillis', '≥ 0'],
    [{ operationTimeoutMs: 'forever' }, 'operationTimeoutMs', 'infinite'],
    [{ attemptTimeoutMs: 0 }, 'attemptTimeoutMs', '≥ 1'],
    [{ refreshWaitBudgetMs: 2.5 }, 'refreshWaitBudgetMs', 'whole number'],
    [{ disableRetries: 'true' }, 'disableRetries', ''],
    [{ bugs: { retryConflict: 1 } }, 'bugs.retryConflict', ''],
  ] as const)('%j is rejected at %s', (input, path, words) => {
    const error = inputErrorOf(() => resolveClientConfig(input));
    expect(error.issues.map((i) => i.path)).toEqual([path]);
    if (words !== '') expect(error.message).toContain(words);
  });

  it('several bad values at once are all named in one error', () => {
    const error = inputErrorOf(() =>
      resolveClientConfig(
        { maxAttempts: 0, backoffMillis: 'x', bugs: { retryConflict: 'yes' } },
        { ZARIS_REQUEST_TIMEOUT: '5h', ZARIS_DISABLE_RETRIES: 'yes', ZARIS_CLIENT_MAP_REFRESH_WAIT_MS: '-5' },
        DEFAULT_CLIENT_CONFIG,
        'scenario storm.json',
      ),
    );
    expect(error.source).toBe('scenario storm.json');
    expect(error.issues.map((i) => i.path).sort()).toEqual(
      ['ZARIS_CLIENT_MAP_REFRESH_WAIT_MS', 'ZARIS_DISABLE_RETRIES', 'ZARIS_REQUEST_TIMEOUT', 'backoffMillis', 'bugs.retryConflict', 'maxAttempts'].sort(),
    );
    expect(error.message.startsWith('scenario storm.json: ')).toBe(true);
  });

  it('a non-object input is rejected', () => {
    inputErrorOf(() => resolveClientConfig(42));
  });
});
