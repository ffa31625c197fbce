import { z } from 'zod';

/** One problem with an input, located by its field path. */
export interface InputIssue {
  /** dotted field path, e.g. `faults[2].action` or `ZARIS_REQUEST_TIMEOUT` */
  readonly path: string;
  readonly message: string;
}

/** Bad input (config, scenario, URL, imported file): names every bad field. */
export class InputError extends Error {
  constructor(
    /** what was being read, e.g. "scenario failover.json" */
    readonly source: string,
    readonly issues: readonly InputIssue[],
  ) {
    super(`${source}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
    this.name = 'InputError';
  }
}

/** `a.b[2].c` from a zod issue path */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out;
}

/** unknown fields named in one issue line */
const MAX_KEYS_NAMED = 10;

/**
 * zod error → issues with paths and messages that name the allowed values.
 * Given the schema and the input, a value of the wrong type at a number
 * field is answered with that field's range and the value found (zod alone
 * says only "expected number, received string").
 */
export function issuesOf(error: z.ZodError, prefix = '', schema?: z.ZodType, input?: unknown): InputIssue[] {
  // one line per field: a value can fail several checks (1e300: not a safe integer, and too big)
  const seen = new Set<string>();
  const first = error.issues.filter((issue) => {
    const key = issue.path.map(String).join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return first.map((issue) => {
    const path = formatPath([...(prefix ? [prefix] : []), ...issue.path]);
    let message = issue.message;
    // a whole-number field: a fraction, or a number beyond the safe integers (1e300 is "whole" but not an integer zod accepts)
    const wholeNumber = (issue.code === 'invalid_type' && issue.expected === 'int') || ((issue.code === 'too_big' || issue.code === 'too_small') && issue.origin === 'int');
    if (issue.code === 'unrecognized_keys') {
      // a generated file can hold thousands: the line names the first few
      const shown = issue.keys.slice(0, MAX_KEYS_NAMED).map((k) => JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k));
      const more = issue.keys.length - shown.length;
      message = `unknown field(s) ${shown.join(', ')}${more > 0 ? ` and ${more} more` : ''} (typo? unknown fields are not allowed)`;
    } else if (issue.code === 'invalid_type' && issue.expected === 'object' && schema !== undefined) {
      const fields = objectFieldsAt(schema, issue.path);
      const got = describeValue(valueAt(input, issue.path));
      if (fields !== null) message = `${issue.path.length === 0 ? 'the file must hold one JSON object' : 'must be an object'} (fields: ${fields.join(', ')}); got ${got}`;
    } else if (issue.code === 'invalid_type' && (issue.expected === 'string' || issue.expected === 'boolean') && schema !== undefined && message.startsWith('Invalid input')) {
      message = `must be ${issue.expected === 'string' ? 'a string' : 'true or false'}; got ${describeValue(valueAt(input, issue.path))}`;
    } else if (((issue.code === 'invalid_type' && issue.expected === 'number') || wholeNumber || issue.code === 'too_big' || issue.code === 'too_small') && schema !== undefined) {
      const range = numberRangeAt(schema, issue.path);
      if (range !== null) {
        const got = describeValue(valueAt(input, issue.path));
        // zod's generic text is replaced; a schema's own message keeps its words (and gets the range unless it names one);
        // a value out of range also hears of the other bound, which the message of the one it broke does not name
        const other = wholeNumber ? null : otherBound(schema, issue);
        message = message.startsWith('Invalid input')
          ? `must be ${range}; got ${got}`
          : other !== null
            ? `${message}${namesNumber(message, other.value) ? '' : ` (and ${other.text})`}; got ${got}`
            : /\d/.test(message)
              ? `${message}; got ${got}`
              : `${message} (allowed: ${range.replace(/^a (whole )?number (in )?/, '')}); got ${got}`;
      }
    }
    return { path, message };
  });
}

/** `text` has the number `n` standing alone ("≤ 1000", not the 0 of "0.5" or of "1000") */
function namesNumber(text: string, n: string): boolean {
  return new RegExp(`(^|[^\\d.])${n.replace(/[.\-+]/g, '\\$&')}(?![\\d.])`).test(text);
}

/** for a value out of range: the bound it did not break ("≤ 3600000" for one too small), null when the schema has none */
function otherBound(schema: z.ZodType, issue: z.core.$ZodIssue): { value: string; text: string } | null {
  if (issue.code !== 'too_small' && issue.code !== 'too_big') return null;
  const b = numberBoundsAt(schema, issue.path);
  const v = issue.code === 'too_small' ? b?.hi : b?.lo;
  if (v === null || v === undefined || Math.abs(v) >= Number.MAX_SAFE_INTEGER) return null;
  return { value: String(v), text: `${issue.code === 'too_small' ? '≤' : '≥'} ${v}` };
}

/** the fields of the object schema at `path` (null when there is none) */
export function objectFieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] | null {
  const node = schemaAt(schema, path) as { shape?: Record<string, unknown> } | null;
  return node?.shape !== undefined ? Object.keys(node.shape) : null;
}

/** "a whole number in 1..32" for the number schema at `path` (null when there is none) */
export function numberRangeAt(schema: z.ZodType, path: readonly PropertyKey[]): string | null {
  const b = numberBoundsAt(schema, path);
  if (b === null) return null;
  const { lo, hi } = b;
  const what = b.isInt ? 'a whole number' : 'a number';
  if (lo !== null && hi !== null) return `${what} in ${lo}..${hi}`;
  if (lo !== null) return `${what} ≥ ${lo}`;
  if (hi !== null) return `${what} ≤ ${hi}`;
  return what;
}

/** the bounds of the number schema at `path` (null bounds: none, or an upper one beyond the safe integers; null: no number schema there) */
function numberBoundsAt(schema: z.ZodType, path: readonly PropertyKey[]): { lo: number | null; hi: number | null; isInt: boolean } | null {
  const n = schemaAt(schema, path) as { def?: { type?: string }; minValue?: number | null; maxValue?: number | null; isInt?: boolean } | null;
  if (n?.def?.type !== 'number') return null;
  const lo = n.minValue !== null && n.minValue !== undefined && Number.isFinite(n.minValue) ? n.minValue : null;
  const hi = n.maxValue !== null && n.maxValue !== undefined && Number.isFinite(n.maxValue) && Math.abs(n.maxValue) < Number.MAX_SAFE_INTEGER ? n.maxValue : null;
  return { lo, hi, isInt: n.isInt === true };
}

/** the schema at `path`, through optional / nullable / default wrappers, objects and arrays (null when the path leaves the schema) */
function schemaAt(schema: z.ZodType, path: readonly PropertyKey[]): unknown {
  let s: unknown = schema;
  for (const key of [...path, null]) {
    // unwrap optional / nullable / default wrappers
    for (let i = 0; i < 8 && s !== null && typeof s === 'object'; i++) {
      const def = (s as { def?: { type?: string; innerType?: unknown } }).def;
      if (def?.innerType !== undefined && (def.type === 'optional' || def.type === 'nullable' || def.type === 'default')) s = def.innerType;
      else break;
    }
    if (key === null) break;
    const node = s as { shape?: Record<string, unknown>; element?: unknown };
    if (typeof key === 'number' && node.element !== undefined) s = node.element;
    else if (typeof key === 'string' && node.shape !== undefined) s = node.shape[key];
    else return null;
  }
  return s ?? null;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v = input;
  for (const key of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[key];
  }
  return v;
}

function describeValue(v: unknown): string {
  if (typeof v === 'string') {
    const quoted = JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
    return v.trim() !== '' && Number.isFinite(Number(v)) ? `the string ${quoted} (write the number without quotes)` : `the string ${quoted}`;
  }
  if (v === undefined) return 'nothing';
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  return typeof v === 'object' ? 'an object' : `${typeof v} ${String(v)}`;
}

/** parses `input` with `schema` or throws an {@link InputError} naming each bad field */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, source: string): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new InputError(source, issuesOf(r.error));
  return r.data;
}

/** the shortest positive time a scenario may give (1 µs): far smaller ones (1e-300 ms) let a run take millions of steps without virtual time moving on */
export const MIN_POSITIVE_MS = 0.001;

/** a time in ms: 0, or 1 µs up to an hour */
export const timeMs = (field = '') =>
  z
    .number()
    .min(0, `${field}must be ≥ 0 ms (allowed: 0, or ${MIN_POSITIVE_MS}..3600000)`)
    .max(3_600_000, `${field}must be ≤ 3600000 ms (one hour)`)
    .refine((v) => v === 0 || v >= MIN_POSITIVE_MS, { message: `${field}must be 0 or ≥ ${MIN_POSITIVE_MS} ms (1 µs): a smaller positive time would keep virtual time from advancing` });
