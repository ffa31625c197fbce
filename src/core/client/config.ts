import { z } from 'zod';
import { InputError, issuesOf, type InputIssue } from '../validation';

/**
 * Historical client bugs, replayable one at a time (SPEC §8). All off by
 * default; each changes only the mechanism it names.
 */
export interface BugToggles {
  /** the refresh storm: with a deadline set, the loop is bounded by the deadline alone */
  readonly deadlineReplacesAttempts: boolean;
  /** every refresh request starts its own map fetch (thundering herd) */
  readonly noRefreshCoalescing: boolean;
  /** a refresh runs even if the map was refreshed a moment ago */
  readonly noRefreshDebounce: boolean;
  /** the backoff delay is not clamped to the time left before the deadline */
  readonly unclampedBackoff: boolean;
  /** `Conflict` is retried like a transient status (defeats compare-and-swap) */
  readonly retryConflict: boolean;
}

export const BUG_TOGGLES = [
  'deadlineReplacesAttempts',
  'noRefreshCoalescing',
  'noRefreshDebounce',
  'unclampedBackoff',
  'retryConflict',
] as const satisfies readonly (keyof BugToggles)[];

export const NO_BUGS: BugToggles = {
  deadlineReplacesAttempts: false,
  noRefreshCoalescing: false,
  noRefreshDebounce: false,
  unclampedBackoff: false,
  retryConflict: false,
};

/** The client's settings (SPEC §7). */
export interface ClientConfig {
  /** attempts per operation, first one included */
  readonly maxAttempts: number;
  /** ms; the delay before attempt n+1 is backoffMillis × n (×8 after Migrating, cap 2 s) */
  readonly backoffMillis: number;
  /** ms an operation may take in all; null = infinite (no deadline) */
  readonly operationTimeoutMs: number | null;
  /** budget of one attempt (ZARIS_DISABLE_RETRIES) */
  readonly disableRetries: boolean;
  /** ms a caller waits for a shared map refresh before it stops waiting */
  readonly refreshWaitBudgetMs: number;
  /** ms after a successful refresh during which a new refresh does nothing */
  readonly refreshDebounceMs: number;
  /** ms one attempt (or one map fetch) may take on the transport, clamped to the deadline */
  readonly attemptTimeoutMs: number;
  readonly bugs: BugToggles;
}

export const DEFAULT_CLIENT_CONFIG: ClientConfig = {
  maxAttempts: 3,
  backoffMillis: 100,
  operationTimeoutMs: 60_000,
  disableRetries: false,
  refreshWaitBudgetMs: 15_000,
  refreshDebounceMs: 500,
  attemptTimeoutMs: 1_000,
  bugs: NO_BUGS,
};

/** the longest time setting accepted, ms (one day; longer is "infinite" in practice, and keeps every sum of times exact) */
export const MAX_SETTING_MS = 86_400_000;

/** a whole number of ms in `min`..one day (`why`: the reason for a lower bound above 0) */
const ms = (what: string, min = 0, why = '') =>
  z
    .number({ error: `${what} must be a whole number of ms in ${min}..${MAX_SETTING_MS}` })
    .int(`${what} must be a whole number of ms in ${min}..${MAX_SETTING_MS}`)
    .min(min, `${what} must be ≥ ${min} ms${why}`)
    .max(MAX_SETTING_MS, `${what} must be ≤ ${MAX_SETTING_MS} ms (one day)`);

export const bugTogglesSchema = z
  .strictObject({
    deadlineReplacesAttempts: z.boolean({ error: 'bug toggles are booleans: true or false' }),
    noRefreshCoalescing: z.boolean({ error: 'bug toggles are booleans: true or false' }),
    noRefreshDebounce: z.boolean({ error: 'bug toggles are booleans: true or false' }),
    unclampedBackoff: z.boolean({ error: 'bug toggles are booleans: true or false' }),
    retryConflict: z.boolean({ error: 'bug toggles are booleans: true or false' }),
  })
  .partial();

/** Partial client configuration as written in scenarios, URLs and the control panel. */
export const clientConfigInputSchema = z
  .strictObject({
    maxAttempts: z.number({ error: 'maxAttempts must be a whole number 1–1000' }).int('maxAttempts must be a whole number').min(1, 'maxAttempts must be ≥ 1').max(1000, 'maxAttempts must be ≤ 1000'),
    backoffMillis: ms('backoffMillis').max(60_000, 'backoffMillis must be ≤ 60000'),
    // a deadline of 0 ms fails every operation before its first attempt: refused, as one that rounds to 0 is
    operationTimeoutMs: z.union([ms('operationTimeoutMs', 1, ': a deadline of 0 fails every operation before its first attempt ("infinite" disables it)'), z.null(), z.literal('infinite')], {
      error: `operationTimeoutMs must be a whole number of ms in 1..${MAX_SETTING_MS}, or "infinite" (or null) to disable the deadline`,
    }),
    disableRetries: z.boolean({ error: 'disableRetries must be true or false' }),
    refreshWaitBudgetMs: ms('refreshWaitBudgetMs'),
    refreshDebounceMs: ms('refreshDebounceMs'),
    attemptTimeoutMs: ms('attemptTimeoutMs', 1),
    bugs: bugTogglesSchema,
  })
  .partial();
export type ClientConfigInput = z.input<typeof clientConfigInputSchema>;

/** Applies a validated partial input over a base configuration. */
export function mergeClientConfig(base: ClientConfig, input: z.output<typeof clientConfigInputSchema>): ClientConfig {
  const { bugs, operationTimeoutMs, ...rest } = input;
  const defined = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
  return {
    ...base,
    ...defined,
    ...(operationTimeoutMs !== undefined ? { operationTimeoutMs: operationTimeoutMs === 'infinite' ? null : operationTimeoutMs } : {}),
    bugs: { ...base.bugs, ...Object.fromEntries(Object.entries(bugs ?? {}).filter(([, v]) => v !== undefined)) },
  };
}

/** Environment names the CLI honours (SPEC §7). */
export const ENV_NAMES = {
  requestTimeout: 'ZARIS_REQUEST_TIMEOUT',
  disableRetries: 'ZARIS_DISABLE_RETRIES',
  refreshWaitMs: 'ZARIS_CLIENT_MAP_REFRESH_WAIT_MS',
} as const;

/** other `ZARIS_*` names the project reads (the test suites' run count and seed): not client settings, but not misspellings either */
export const OTHER_ENV_NAMES = ['ZARIS_PROPERTY_RUNS', 'ZARIS_PROPERTY_SEED'] as const;
const KNOWN_ENV = new Set<string>([...Object.values(ENV_NAMES), ...OTHER_ENV_NAMES]);

/** a name of the project's environment: `ZARIS_*` in any case (names are case-sensitive, so `zaris_request_timeout` is read by nothing) */
export function isZarisEnvName(name: string): boolean {
  return name.toUpperCase().startsWith('ZARIS_');
}

/** `ZARIS_*` names in `env` (in any case) that nothing reads (a misspelling would otherwise be ignored silently) */
export function unknownEnvNames(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter((k) => isZarisEnvName(k) && !KNOWN_ENV.has(k))
    .sort();
}

const DURATION_HELP = 'expected seconds as a bare number (e.g. "60" or "0.5"), "<n>ms", "<n>s", "<n>m", or "infinite"';

/** the deadline a `ZARIS_REQUEST_TIMEOUT` value means, ms before rounding (null: infinite; NaN: not a duration) */
function exactTimeoutMs(s: string): number | null {
  const v = s.toLowerCase();
  if (v === 'infinite') return null;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)?$/.exec(v);
  if (m === null) return NaN; // the regex check has named it
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return unit === 'ms' ? n : unit === 's' ? n * 1000 : n * 60_000;
}

/** `ZARIS_REQUEST_TIMEOUT`: bare number = seconds; `250ms`, `2s`, `1m`; `infinite` → null */
export const requestTimeoutSchema = z
  .string()
  .trim()
  .regex(/^(infinite|\d+(\.\d+)?(ms|s|m)?)$/i, DURATION_HELP)
  .transform(exactTimeoutMs)
  // a positive deadline below 0.5 ms would round to 0, where no attempt can run at all
  .refine((exact) => exact === null || Number.isNaN(exact) || exact > 0, 'a deadline of 0 fails every operation before its first attempt: give at least "1ms" ("infinite" disables it)')
  .refine((exact) => exact === null || !(exact > 0) || Math.round(exact) > 0, 'rounds to 0 ms, where no attempt can run: the deadline counts whole ms (at least "1ms"; "infinite" disables it)')
  .transform((exact): number | null => (exact === null ? null : Math.round(exact)))
  .refine((v) => v === null || v <= MAX_SETTING_MS, `at most one day (${MAX_SETTING_MS / 1000} s, "1440m"); use "infinite" to disable the deadline`);

export const disableRetriesSchema = z
  .string()
  .trim()
  .regex(/^(true|false)$/i, 'expected "true" or "false"')
  .transform((s) => s.toLowerCase() === 'true');

export const refreshWaitMsSchema = z
  .string()
  .trim()
  .regex(/^\d+$/, 'expected a whole number of milliseconds ≥ 0 (e.g. "15000")')
  .transform(Number)
  .refine((v) => v <= MAX_SETTING_MS, `expected a whole number of milliseconds in 0..${MAX_SETTING_MS}`);

/**
 * The one resolver from (base, partial input, environment) to a client
 * configuration. Used by the CLI, the scenario loader and the browser's
 * config panel. Throws an {@link InputError} naming every bad setting.
 */
export function resolveClientConfig(
  input: unknown = {},
  env: Readonly<Record<string, string | undefined>> = {},
  base: ClientConfig = DEFAULT_CLIENT_CONFIG,
  source = 'client configuration',
): ClientConfig {
  const issues: InputIssue[] = [];
  const parsed = clientConfigInputSchema.safeParse(input ?? {});
  if (!parsed.success) issues.push(...issuesOf(parsed.error, '', clientConfigInputSchema, input));

  const fromEnv: { operationTimeoutMs?: number | null; disableRetries?: boolean; refreshWaitBudgetMs?: number } = {};
  const readEnv = <T>(name: string, schema: z.ZodType<T>, apply: (v: T) => void) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return;
    const r = schema.safeParse(raw);
    if (r.success) apply(r.data);
    else issues.push({ path: name, message: `${r.error.issues[0]?.message ?? 'invalid'}; got "${raw.length > 40 ? `${raw.slice(0, 40)}…" (${raw.length} characters)` : `${raw}"`}` });
  };
  for (const name of unknownEnvNames(env)) {
    const reads = `the client reads ${Object.values(ENV_NAMES).join(', ')}`;
    issues.push({
      path: name,
      message: KNOWN_ENV.has(name.toUpperCase())
        ? `is not a setting: names are case-sensitive, so nothing reads it (${reads}); rename it ${name.toUpperCase()}`
        : `is not a setting (${reads}); unset it or fix its name`,
    });
  }
  readEnv(ENV_NAMES.requestTimeout, requestTimeoutSchema, (v) => (fromEnv.operationTimeoutMs = v));
  readEnv(ENV_NAMES.disableRetries, disableRetriesSchema, (v) => (fromEnv.disableRetries = v));
  readEnv(ENV_NAMES.refreshWaitMs, refreshWaitMsSchema, (v) => (fromEnv.refreshWaitBudgetMs = v));

  if (issues.length > 0 || !parsed.success) throw new InputError(source, issues);
  const merged = mergeClientConfig(base, parsed.data);
  return { ...merged, ...fromEnv };
}

/** the client settings the environment sets (a name given a non-empty value): they override the file, its schedule too */
export function envControlledSettings(env: Readonly<Record<string, string | undefined>>): ('operationTimeoutMs' | 'disableRetries' | 'refreshWaitBudgetMs')[] {
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  return [
    ...(set(ENV_NAMES.requestTimeout) ? (['operationTimeoutMs'] as const) : []),
    ...(set(ENV_NAMES.disableRetries) ? (['disableRetries'] as const) : []),
    ...(set(ENV_NAMES.refreshWaitMs) ? (['refreshWaitBudgetMs'] as const) : []),
  ];
}

/** attempts the loop may make: 1 when retries are disabled */
export function attemptBudget(config: ClientConfig): number {
  return config.disableRetries ? 1 : config.maxAttempts;
}

/** the settings of `cur` that differ from `base`, as a scenario's partial client section (bugs: only the toggles that changed) */
export function clientConfigDiff(base: ClientConfig, cur: ClientConfig): ClientConfigInput {
  const out: { -readonly [K in keyof ClientConfigInput]: ClientConfigInput[K] } = {};
  if (cur.maxAttempts !== base.maxAttempts) out.maxAttempts = cur.maxAttempts;
  if (cur.backoffMillis !== base.backoffMillis) out.backoffMillis = cur.backoffMillis;
  if (cur.operationTimeoutMs !== base.operationTimeoutMs) out.operationTimeoutMs = cur.operationTimeoutMs ?? 'infinite';
  if (cur.disableRetries !== base.disableRetries) out.disableRetries = cur.disableRetries;
  if (cur.refreshWaitBudgetMs !== base.refreshWaitBudgetMs) out.refreshWaitBudgetMs = cur.refreshWaitBudgetMs;
  if (cur.refreshDebounceMs !== base.refreshDebounceMs) out.refreshDebounceMs = cur.refreshDebounceMs;
  if (cur.attemptTimeoutMs !== base.attemptTimeoutMs) out.attemptTimeoutMs = cur.attemptTimeoutMs;
  const bugs = Object.fromEntries(BUG_TOGGLES.filter((t) => cur.bugs[t] !== base.bugs[t]).map((t) => [t, cur.bugs[t]]));
  if (Object.keys(bugs).length > 0) out.bugs = bugs;
  return out;
}
