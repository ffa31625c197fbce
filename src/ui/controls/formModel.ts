/**
 * The control forms as pure functions: form text → validated configuration
 * through the project's one resolver and schemas, or the issues that refuse
 * it — each naming the field and the values it allows.
 */
import { resolveClientConfig, type BugToggles, type ClientConfig } from '../../core/client/config';
import { resolveWorkload, workloadSchema, MIX_KINDS, type MixKind, type WorkloadConfig } from '../../core/sim/workloadConfig';
import { InputError, issuesOf, type InputIssue } from '../../core/validation';

/** one numeric input: its label, unit and the values it allows (shown beside it and in errors) */
export interface FieldSpec<K extends string> {
  readonly key: K;
  readonly label: string;
  readonly unit?: string;
  readonly allowed: string;
}

export const CLIENT_FIELDS = [
  { key: 'maxAttempts', label: 'Max attempts', allowed: 'whole number 1–1000' },
  { key: 'backoffMillis', label: 'Backoff step', unit: 'ms', allowed: 'whole ms 0–60000' },
  { key: 'operationTimeoutMs', label: 'Deadline', unit: 'ms', allowed: 'whole ms ≥ 0, or infinite' },
  { key: 'refreshWaitBudgetMs', label: 'Refresh wait budget', unit: 'ms', allowed: 'whole ms ≥ 0' },
  { key: 'refreshDebounceMs', label: 'Refresh debounce', unit: 'ms', allowed: 'whole ms ≥ 0' },
  { key: 'attemptTimeoutMs', label: 'Attempt timeout', unit: 'ms', allowed: 'whole ms ≥ 1' },
] as const satisfies readonly FieldSpec<string>[];
export type ClientField = (typeof CLIENT_FIELDS)[number]['key'];

export type ClientFormValues = Record<ClientField, string> & {
  /** no deadline at all */
  readonly infinite: boolean;
  readonly disableRetries: boolean;
};

export const WORKLOAD_FIELDS = [
  { key: 'concurrency', label: 'Closed-loop users', allowed: 'whole number 0–100000' },
  { key: 'thinkMs', label: 'Think time', unit: 'ms', allowed: 'ms 0–3600000' },
  { key: 'ratePerSec', label: 'Open-loop rate', unit: 'ops/s', allowed: '0–10000000 per s' },
  { key: 'maxInFlight', label: 'Max in flight', allowed: 'whole number 1–1000000' },
  { key: 'keys', label: 'Keys', allowed: 'whole number 1–10000000' },
  { key: 'zipfExponent', label: 'Zipf exponent', allowed: '0–5 (zipf only)' },
] as const satisfies readonly FieldSpec<string>[];
export type WorkloadField = (typeof WORKLOAD_FIELDS)[number]['key'];
export const MIX_ALLOWED = 'weight ≥ 0';

export type WorkloadFormValues = Record<WorkloadField, string> &
  Record<`mix.${MixKind}`, string> & { readonly distribution: WorkloadConfig['distribution'] };

export type FormResult<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly issues: readonly InputIssue[] };

const ALLOWED: Readonly<Record<string, string>> = Object.fromEntries([
  ...[...CLIENT_FIELDS, ...WORKLOAD_FIELDS].map((f) => [f.key, `${f.label}: ${f.allowed}`]),
  ...MIX_KINDS.map((k) => [`mix.${k}`, `mix ${k}: ${MIX_ALLOWED}`]),
]);

/** an issue's message with the allowed values of its field appended */
export function describeIssue(issue: InputIssue): string {
  const allowed = ALLOWED[issue.path];
  // "maxAttempts must be ≥ 1" names its field already; "is required" does not
  const named = issue.path === '' || issue.message.startsWith(`${issue.path} `);
  // the form names the field's allowed values itself and shows the value typed: the schema's "(and ≤ 1000); got number 0" would say it twice
  const message = allowed ? issue.message.replace(/ \(and [^)]*\)(?=; got )/, '').replace(/; got .*$/, '') : issue.message;
  return `${named ? '' : `${issue.path}: `}${message}${allowed ? ` (allowed — ${allowed})` : ''}`;
}

/** text → number, or an issue naming the field */
function numberField(path: string, text: string, issues: InputIssue[]): number | undefined {
  const t = text.trim();
  if (t === '') {
    issues.push({ path, message: 'is required' });
    return undefined;
  }
  const n = Number(t);
  if (!Number.isFinite(n)) {
    issues.push({ path, message: `"${t}" is not a number` });
    return undefined;
  }
  return n;
}

export function clientFormOf(c: ClientConfig): ClientFormValues {
  return {
    maxAttempts: String(c.maxAttempts),
    backoffMillis: String(c.backoffMillis),
    operationTimeoutMs: c.operationTimeoutMs === null ? '' : String(c.operationTimeoutMs),
    infinite: c.operationTimeoutMs === null,
    disableRetries: c.disableRetries,
    refreshWaitBudgetMs: String(c.refreshWaitBudgetMs),
    refreshDebounceMs: String(c.refreshDebounceMs),
    attemptTimeoutMs: String(c.attemptTimeoutMs),
  };
}

/** validates the client form over `base` (bug toggles are kept from `base`) */
export function parseClientForm(v: ClientFormValues, base: ClientConfig): FormResult<ClientConfig> {
  const issues: InputIssue[] = [];
  const input: Record<string, unknown> = { disableRetries: v.disableRetries };
  for (const f of CLIENT_FIELDS) {
    if (f.key === 'operationTimeoutMs' && (v.infinite || v.operationTimeoutMs.trim().toLowerCase() === 'infinite')) {
      input[f.key] = 'infinite';
      continue;
    }
    const n = numberField(f.key, v[f.key], issues);
    if (n !== undefined) input[f.key] = n;
  }
  try {
    const config = resolveClientConfig(input, {}, base, 'client configuration');
    return issues.length > 0 ? { ok: false, issues } : { ok: true, value: config };
  } catch (e) {
    if (!(e instanceof InputError)) throw e;
    return { ok: false, issues: [...issues, ...e.issues.filter((i) => !issues.some((j) => j.path === i.path))] };
  }
}

/** `base` with one bug toggle switched */
export function withBug(base: ClientConfig, bug: keyof BugToggles, on: boolean): ClientConfig {
  return resolveClientConfig({ bugs: { [bug]: on } }, {}, base, 'bug toggles');
}

export function workloadFormOf(w: WorkloadConfig): WorkloadFormValues {
  const out: Record<string, string> = { distribution: w.distribution };
  for (const f of WORKLOAD_FIELDS) out[f.key] = String(w[f.key]);
  for (const k of MIX_KINDS) out[`mix.${k}`] = String(w.mix[k]);
  return out as WorkloadFormValues;
}

/** validates the workload form through the scenario schema's workload rules */
export function parseWorkloadForm(v: WorkloadFormValues, base: WorkloadConfig): FormResult<WorkloadConfig> {
  const issues: InputIssue[] = [];
  const input: Record<string, unknown> = { distribution: v.distribution, casMaxRereads: base.casMaxRereads };
  for (const f of WORKLOAD_FIELDS) {
    const n = numberField(f.key, v[f.key], issues);
    if (n !== undefined) input[f.key] = n;
  }
  const mix: Record<string, number> = {};
  for (const k of MIX_KINDS) {
    const n = numberField(`mix.${k}`, v[`mix.${k}`], issues);
    if (n !== undefined) mix[k] = n;
  }
  input.mix = mix;
  const parsed = workloadSchema.safeParse(input);
  if (!parsed.success) issues.push(...issuesOf(parsed.error).filter((i) => !issues.some((j) => j.path === i.path)));
  if (issues.length > 0 || !parsed.success) return { ok: false, issues };
  if ((parsed.data.concurrency ?? 0) === 0 && (parsed.data.ratePerSec ?? 0) === 0) {
    return { ok: false, issues: [{ path: 'concurrency', message: 'the workload needs closed-loop users ≥ 1 or an open-loop rate > 0' }] };
  }
  if (MIX_KINDS.every((k) => (mix[k] ?? 0) === 0)) return { ok: false, issues: [{ path: 'mix.get', message: 'at least one mix weight must be > 0' }] };
  return { ok: true, value: resolveWorkload(parsed.data) };
}
