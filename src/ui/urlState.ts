/**
 * The shareable URL: which scenario (a preset id, or an inline scenario as
 * compressed base64url JSON), seed, client overrides, view, cursor and the
 * A/B toggle pair. Pure functions over the search string; decoding validates
 * every parameter and throws an InputError naming the parameter and the
 * allowed values, so a hand-edited URL gets a clear message.
 */
import { z } from 'zod';
import { BUG_TOGGLES, clientConfigInputSchema, type BugToggles, type ClientConfigInput } from '../core/client/config';
import { PRESET_IDS } from '../core/sim/presets';
import { scenarioSchema, type ScenarioInput } from '../core/sim/scenario';
import { InputError, issuesOf, type InputIssue } from '../core/validation';
import { decodeJsonParam, encodeJsonParam } from './urlCodec';

export const VIEWS = ['live', 'replay', 'compare'] as const;
export type View = (typeof VIEWS)[number];
export type BugToggle = keyof BugToggles;

/** a preset by id, or a whole scenario carried in the URL */
export type ScenarioRef = { readonly preset: string } | { readonly inline: ScenarioInput };

/** Client settings the URL overrides (absent = the scenario's value). */
export interface ClientOverrides {
  readonly maxAttempts?: number;
  /** ms */
  readonly backoffMillis?: number;
  /** ms, or 'infinite' (no deadline) */
  readonly operationTimeoutMs?: number | 'infinite';
  readonly disableRetries?: boolean;
  /** ms a caller waits for a shared refresh */
  readonly refreshWaitBudgetMs?: number;
  /** ms */
  readonly refreshDebounceMs?: number;
  /** ms */
  readonly attemptTimeoutMs?: number;
  /** the bug toggles that are on (the others off); absent = the scenario's */
  readonly bugs?: readonly BugToggle[];
}

export interface UrlState {
  readonly scenario: ScenarioRef;
  /** overrides the scenario's seed */
  readonly seed?: number;
  readonly client: ClientOverrides;
  readonly view: View;
  /** replay cursor, ms since run start */
  readonly cursor?: number;
  /** A/B: the bug toggles on in run A and in run B (a side not named keeps the scenario's suggested side) */
  readonly compare?: { readonly a?: readonly BugToggle[]; readonly b?: readonly BugToggle[] };
}

export const DEFAULT_URL_STATE: UrlState = { scenario: { preset: 'failover' }, client: {}, view: 'live' };

const CLIENT_NUMBERS = ['maxAttempts', 'backoffMillis', 'refreshWaitBudgetMs', 'refreshDebounceMs', 'attemptTimeoutMs'] as const;
/** every parameter, in the order the encoder writes them */
export const URL_PARAMS = ['preset', 'scenario', 'seed', ...CLIENT_NUMBERS, 'operationTimeoutMs', 'disableRetries', 'bugs', 'view', 'cursor', 'cmpA', 'cmpB'] as const;
type Param = (typeof URL_PARAMS)[number];

/** longest search string accepted, characters */
export const MAX_SEARCH_CHARS = 32_768;
/** longest inline scenario parameter, characters */
export const MAX_SCENARIO_CHARS = 16_384;
/** longest any other parameter, characters */
export const MAX_PARAM_CHARS = 200;
const MAX_SCENARIO_BYTES = 64 * 1024;
const MAX_CURSOR_MS = 3_600_000;
const MAX_SEED = 2 ** 31 - 1;

const list = (xs: readonly string[]): string => xs.join(', ');
const got = (raw: string): string => JSON.stringify(raw.length > 40 ? `${raw.slice(0, 37)}…` : raw);

const wholeRe = /^\d{1,16}$/;
const decimalRe = /^\d+(\.\d+)?(e[+-]?\d+)?$/i;

/** a parsed value or the message explaining what was expected */
type Parsed<T> = { ok: true; value: T } | { ok: false; message: string };
const fail = (message: string): Parsed<never> => ({ ok: false, message });

function whole(raw: string, min: number): Parsed<number> {
  return wholeRe.test(raw) && Number(raw) >= min ? { ok: true, value: Number(raw) } : fail(`must be a whole number ≥ ${min} (got ${got(raw)})`);
}

function toggles(raw: string): Parsed<BugToggle[]> {
  if (raw === '' || raw === 'none') return { ok: true, value: [] };
  const names = raw.split(',');
  const bad = names.filter((n) => !(BUG_TOGGLES as readonly string[]).includes(n));
  if (bad.length > 0) return fail(`unknown bug toggle(s) ${bad.map(got).join(', ')}; a comma-separated list of ${list(BUG_TOGGLES)}, or none`);
  return { ok: true, value: BUG_TOGGLES.filter((t) => names.includes(t)) };
}

const encodeToggles = (ts: readonly BugToggle[]): string => (ts.length === 0 ? 'none' : BUG_TOGGLES.filter((t) => ts.includes(t)).join(','));

/** the state as a search string (`?preset=failover&seed=3…`), parameters in a fixed order */
export function encodeUrlState(state: UrlState): string {
  const out: [Param, string][] = [];
  if ('preset' in state.scenario) out.push(['preset', state.scenario.preset]);
  else out.push(['scenario', encodeJsonParam(state.scenario.inline)]);
  if (state.seed !== undefined) out.push(['seed', String(state.seed)]);
  const c = state.client;
  for (const k of CLIENT_NUMBERS) if (c[k] !== undefined) out.push([k, String(c[k])]);
  if (c.operationTimeoutMs !== undefined) out.push(['operationTimeoutMs', String(c.operationTimeoutMs)]);
  if (c.disableRetries !== undefined) out.push(['disableRetries', String(c.disableRetries)]);
  if (c.bugs !== undefined) out.push(['bugs', encodeToggles(c.bugs)]);
  if (state.view !== 'live') out.push(['view', state.view]);
  if (state.cursor !== undefined) out.push(['cursor', String(state.cursor)]);
  if (state.compare?.a !== undefined) out.push(['cmpA', encodeToggles(state.compare.a)]);
  if (state.compare?.b !== undefined) out.push(['cmpB', encodeToggles(state.compare.b)]);
  return `?${out.map(([k, v]) => `${k}=${encodeURIComponent(v).replace(/%2C/g, ',')}`).join('&')}`;
}

/** reads the raw parameters: unknown, repeated and over-long ones are issues */
function rawParams(search: string, issues: InputIssue[]): Map<Param, string> {
  const params = new Map<Param, string>();
  const known = new Set<string>(URL_PARAMS);
  for (const [name, value] of new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)) {
    if (!known.has(name)) {
      const like = URL_PARAMS.find((p) => p.toLowerCase() === name.toLowerCase());
      issues.push({ path: name.slice(0, 40), message: `unknown parameter${like ? ` (did you mean ${like}?)` : ''}; known: ${list(URL_PARAMS)}` });
      continue;
    }
    const p = name as Param;
    const max = p === 'scenario' ? MAX_SCENARIO_CHARS : MAX_PARAM_CHARS;
    // the first value applies (the banner says so, and the issue says which)
    if (params.has(p)) issues.push({ path: p, message: `given more than once: the first value (${(params.get(p) as string).slice(0, 40)}) applies` });
    else if (value.length > max) issues.push({ path: p, message: `is ${value.length} characters long; at most ${max}` });
    else params.set(p, value);
  }
  return params;
}

function scenarioRef(params: Map<Param, string>, issues: InputIssue[]): ScenarioRef {
  const preset = params.get('preset');
  const inline = params.get('scenario');
  if (preset !== undefined && inline !== undefined) issues.push({ path: 'scenario', message: 'give either preset or scenario, not both (the preset applies)' });
  if (inline !== undefined && preset === undefined) {
    let json: unknown;
    try {
      json = decodeJsonParam(inline, MAX_SCENARIO_BYTES);
    } catch (e) {
      issues.push({ path: 'scenario', message: (e as Error).message });
      return DEFAULT_URL_STATE.scenario;
    }
    const r = scenarioSchema.safeParse(json);
    if (r.success) return { inline: r.data };
    issues.push(...issuesOf(r.error, 'scenario'));
    return DEFAULT_URL_STATE.scenario;
  }
  if (preset === undefined) return DEFAULT_URL_STATE.scenario;
  if (!PRESET_IDS.includes(preset)) issues.push({ path: 'preset', message: `unknown preset ${got(preset)}; one of ${list(PRESET_IDS)}` });
  return { preset };
}

function clientOverrides(params: Map<Param, string>, issues: InputIssue[]): ClientOverrides {
  const out: { -readonly [K in keyof ClientOverrides]: ClientOverrides[K] } = {};
  const take = <T>(p: Param, parse: (raw: string) => Parsed<T>, set: (v: T) => void): void => {
    const raw = params.get(p);
    if (raw === undefined) return;
    const r = parse(raw);
    if (r.ok) set(r.value);
    else issues.push({ path: p, message: r.message });
  };
  for (const k of CLIENT_NUMBERS) take(k, (raw) => whole(raw, k === 'maxAttempts' || k === 'attemptTimeoutMs' ? 1 : 0), (v) => (out[k] = v));
  const timeout = (raw: string): Parsed<number | 'infinite'> => {
    if (raw === 'infinite') return { ok: true, value: 'infinite' };
    const n = whole(raw, 0);
    return n.ok ? n : fail(`must be a whole number of ms ≥ 0, or infinite (got ${got(raw)})`);
  };
  take('operationTimeoutMs', timeout, (v) => (out.operationTimeoutMs = v));
  take('disableRetries', (raw) => (raw === 'true' || raw === 'false' ? { ok: true, value: raw === 'true' } : fail(`must be true or false (got ${got(raw)})`)), (v) => (out.disableRetries = v));
  take('bugs', toggles, (v) => (out.bugs = v));
  // the config schema's own bounds (e.g. maxAttempts ≤ 1000), named by parameter
  const checked = clientConfigInputSchema.safeParse(toClientConfigInput(out));
  if (!checked.success) {
    const bad = issuesOf(checked.error).filter((i) => !issues.some((x) => x.path === i.path));
    issues.push(...bad);
    // what the schema refused is dropped; the other overrides still apply
    for (const i of bad) delete out[(i.path.split(/[.[]/)[0] ?? '') as keyof ClientOverrides];
  }
  return out;
}

/** a decoded link: the state of everything that was readable, and what was not */
export interface DecodedUrl {
  readonly state: UrlState;
  /** one per bad or missing parameter (what it accepts); those parameters are not in `state` */
  readonly issues: readonly InputIssue[];
}

/**
 * Reads a search string (with or without the leading `?`) forgivingly:
 * every parameter that can be read applies, every one that cannot is named
 * in `issues` and left out (a lone `cmpA` still sets run A). Throws only for
 * a query too long to read at all.
 */
export function decodeUrlParts(search: string): DecodedUrl {
  if (search.length > MAX_SEARCH_CHARS) {
    throw new InputError('URL', [{ path: '', message: `the query is ${search.length} characters long; at most ${MAX_SEARCH_CHARS}` }]);
  }
  const issues: InputIssue[] = [];
  const params = rawParams(search, issues);
  const scenario = scenarioRef(params, issues);
  const client = clientOverrides(params, issues);
  const state: { -readonly [K in keyof UrlState]: UrlState[K] } = { scenario, client, view: 'live' };
  const seed = params.get('seed');
  if (seed !== undefined) {
    if (wholeRe.test(seed) && Number(seed) <= MAX_SEED) state.seed = Number(seed);
    else issues.push({ path: 'seed', message: `must be a whole number from 0 to ${MAX_SEED} (got ${got(seed)})` });
  }
  const view = params.get('view');
  if (view !== undefined) {
    const r = z.enum(VIEWS).safeParse(view);
    if (r.success) state.view = r.data;
    else issues.push({ path: 'view', message: `must be one of ${list(VIEWS)} (got ${got(view)})` });
  }
  const cursor = params.get('cursor');
  if (cursor !== undefined) {
    const n = Number(cursor);
    if (decimalRe.test(cursor) && Number.isFinite(n) && n <= MAX_CURSOR_MS) state.cursor = n;
    else issues.push({ path: 'cursor', message: `must be a time in ms from 0 to ${MAX_CURSOR_MS} (got ${got(cursor)})` });
  }
  const cmpA = params.get('cmpA');
  const cmpB = params.get('cmpB');
  const a = cmpA === undefined ? undefined : toggles(cmpA);
  const b = cmpB === undefined ? undefined : toggles(cmpB);
  if (a !== undefined && !a.ok) issues.push({ path: 'cmpA', message: a.message });
  if (b !== undefined && !b.ok) issues.push({ path: 'cmpB', message: b.message });
  const sideA = a?.ok ? a.value : undefined;
  const sideB = b?.ok ? b.value : undefined;
  if ((cmpA === undefined) !== (cmpB === undefined)) {
    const missing = cmpA === undefined ? 'cmpA' : 'cmpB';
    issues.push({ path: missing, message: `missing: cmpA and cmpB come together (the bug toggles on in run A and in run B); run ${missing === 'cmpA' ? 'A' : 'B'} keeps the scenario's suggested side` });
  }
  if (sideA !== undefined || sideB !== undefined) state.compare = { ...(sideA !== undefined ? { a: sideA } : {}), ...(sideB !== undefined ? { b: sideB } : {}) };
  return { state, issues };
}

/**
 * Parses a search string (with or without the leading `?`) strictly. Throws
 * an {@link InputError} naming every bad parameter; an empty string is
 * {@link DEFAULT_URL_STATE}.
 */
export function decodeUrlState(search: string): UrlState {
  const { state, issues } = decodeUrlParts(search);
  if (issues.length > 0) throw new InputError('URL', [...issues]);
  return state;
}

/** the overrides as input for the client config resolver (bugs: listed on, the rest off) */
export function toClientConfigInput(c: ClientOverrides): ClientConfigInput {
  const { bugs, ...rest } = c;
  return { ...rest, ...(bugs !== undefined ? { bugs: Object.fromEntries(BUG_TOGGLES.map((t) => [t, bugs.includes(t)])) } : {}) };
}
