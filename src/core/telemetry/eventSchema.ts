/**
 * Strict schemas for the SPEC §9 event stream and the JSON Lines reader used
 * to import recorded runs. A file is untrusted input: it is only ever
 * `JSON.parse`d and validated, never executed; every problem is reported as
 * an {@link InputError} naming the line, the field and the allowed values.
 */
import { z } from 'zod';
import { OP_KINDS } from '../domain/protocol';
import { KV_STATUSES, OP_ERRORS, OUTCOMES } from '../domain/status';
import { InputError, issuesOf, type InputIssue } from '../validation';
import {
  END_REASONS,
  EVENT_TYPES,
  FAULT_ACTIONS,
  TOPOLOGY_CHANGES,
  type EventType,
  type ZarisEvent,
} from './events';
import { toNdjsonLine } from './ndjson';

/** default size limit of an imported NDJSON file, bytes (UTF-8) */
export const NDJSON_MAX_BYTES = 200 * 1024 * 1024;
/** default limit on the number of events in an imported file */
export const NDJSON_MAX_EVENTS = 5_000_000;
/** one event is small; a longer line is not an event */
export const NDJSON_MAX_LINE_CHARS = 1 << 20;
/** problems reported before the reader gives up */
const MAX_ISSUES = 10;

const oneOf = (values: readonly string[]) => `must be one of ${values.join(', ')}`;
/** a short, safe rendering of a bad value (never walks nested structures) */
const shown = (x: unknown): string => {
  if (Array.isArray(x)) return 'a list';
  if (x === null) return 'null';
  if (typeof x === 'object') return 'an object';
  const s = typeof x === 'string' ? JSON.stringify(x) : String(x);
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
};
/** zod error option: "required" for a missing field, else `what` and the value seen */
const err = (what: string) => (iss: { input?: unknown }) => (iss.input === undefined ? `required: ${what}` : `${what} (got ${shown(iss.input)})`);

const whole = (min: number) => {
  const what = `must be a whole number ≥ ${min}`;
  return z.number({ error: err(what) }).int({ error: err(what) }).min(min, { error: err(what) });
};
const ms = () => {
  const what = 'must be a number of ms ≥ 0';
  return z.number({ error: err(what) }).min(0, { error: err(what) });
};
const oneOfEnum = <const T extends readonly string[]>(values: T) => z.enum(values, { error: err(oneOf(values)) });
const nodeId = () => whole(0).nullable();
const opId = () => whole(0);
const opOrNull = () => whole(0).nullable();
const segments = () => z.array(whole(0), { error: err('must be a list of segment numbers') }).max(1_000_000);

const kvStatus = oneOfEnum(KV_STATUSES);
const opError = oneOfEnum(OP_ERRORS);
const cause = oneOfEnum([...OUTCOMES, 'connect'] as const);

/** exactly one of `status` / `error` */
const statusXorError = (e: { status?: unknown; error?: unknown }, ctx: z.RefinementCtx): void => {
  if ((e.status === undefined) === (e.error === undefined)) {
    ctx.addIssue({ code: 'custom', path: ['status'], message: 'exactly one of status or error is required' });
  }
};

/** an event's time: no run lasts over an hour (a replay of the file would be refused later, naming a durationMs the file does not have) */
const eventTime = () => ms().max(3_600_000, { error: err('must be at most 3600000 ms: no run lasts over one hour') });
const base = <T extends EventType>(type: T) => ({ t: eventTime(), type: z.literal(type) });

const opStart = z.strictObject({
  ...base('op.start'),
  op: opId(),
  kind: oneOfEnum(OP_KINDS),
  key: z.string({ error: err('must be a string') }).max(4096, 'must be at most 4096 characters'),
  segment: whole(0),
  cond: z.strictObject({ ifMatchVersion: whole(0).optional(), ifAbsent: z.boolean({ error: err('must be true or false') }).optional() }).optional(),
  vu: whole(0).optional(),
  deadline: ms().nullable().optional(),
  budget: whole(1).optional(),
});
const attemptStart = z.strictObject({ ...base('attempt.start'), op: opId(), attempt: whole(1), node: nodeId(), epoch: whole(0) });
const attemptEnd = z
  .strictObject({ ...base('attempt.end'), op: opId(), attempt: whole(1), node: nodeId(), status: kvStatus.optional(), error: opError.optional(), latencyMs: ms() })
  .superRefine(statusXorError);
const attemptAsk = z.strictObject({ ...base('attempt.ask'), op: opId(), node: whole(0), to: whole(0), segment: whole(0) });
const backoff = z
  .strictObject({ ...base('backoff'), op: opId(), attempt: whole(1), delayMs: ms(), status: kvStatus.optional(), error: opError.optional() })
  .superRefine(statusXorError);
const refreshRequest = z.strictObject({ ...base('refresh.request'), op: opOrNull(), cause });
const refreshCoalesced = z.strictObject({ ...base('refresh.coalesced'), op: opOrNull(), refresh: whole(1) });
const refreshStart = z.strictObject({ ...base('refresh.start'), refresh: whole(1), op: opOrNull() });
const refreshEnd = z.strictObject({
  ...base('refresh.end'),
  refresh: whole(1),
  ok: z.boolean({ error: err('must be true or false') }),
  epochBefore: whole(0),
  epochAfter: whole(0),
  node: nodeId(),
  fetches: whole(0),
});
const refreshDebounced = z.strictObject({ ...base('refresh.debounced'), refresh: whole(1), op: opOrNull(), sinceLastMs: ms() });
const refreshWaitAbandoned = z.strictObject({ ...base('refresh.waitAbandoned'), op: opOrNull(), refresh: whole(1), waitedMs: ms() });
const opEnd = z
  .strictObject({
    ...base('op.end'),
    op: opId(),
    status: kvStatus.optional(),
    error: opError.optional(),
    attempts: whole(0),
    latencyMs: ms(),
    version: whole(0).optional(),
    reason: oneOfEnum(END_REASONS),
  })
  .superRefine(statusXorError);
const fault = z.strictObject({
  ...base('fault'),
  action: oneOfEnum(FAULT_ACTIONS),
  node: whole(0),
  segments: segments(),
  detail: z.string({ error: err('must be a string') }).max(10_000).optional(),
  durationMs: z.number({ error: err('must be a number of ms in (0, 3600000]') }).positive({ error: err('must be a number of ms in (0, 3600000]') }).max(3_600_000, { error: err('must be a number of ms in (0, 3600000]') }).optional(),
});
const topology = z.strictObject({ ...base('topology'), epoch: whole(0), change: oneOfEnum(TOPOLOGY_CHANGES), node: whole(0), segments: segments() });

const arrivalRejected = z.strictObject({ ...base('arrival.rejected'), inFlight: whole(0) });

type EventOf<K extends EventType> = Extract<ZarisEvent, { type: K }>;

/** One strict schema per event type; the `satisfies` keeps them in step with events.ts. */
export const EVENT_SCHEMAS = {
  'op.start': opStart,
  'attempt.start': attemptStart,
  'attempt.end': attemptEnd,
  'attempt.ask': attemptAsk,
  backoff,
  'refresh.request': refreshRequest,
  'refresh.coalesced': refreshCoalesced,
  'refresh.start': refreshStart,
  'refresh.end': refreshEnd,
  'refresh.debounced': refreshDebounced,
  'refresh.waitAbandoned': refreshWaitAbandoned,
  'op.end': opEnd,
  fault,
  topology,
  'arrival.rejected': arrivalRejected,
} as const satisfies { readonly [K in EventType]: z.ZodType<EventOf<K>> };

/** Any event, discriminated on `type`; unknown fields are rejected. */
export const zarisEventSchema = z.discriminatedUnion('type', [
  opStart,
  attemptStart,
  attemptEnd,
  attemptAsk,
  backoff,
  refreshRequest,
  refreshCoalesced,
  refreshStart,
  refreshEnd,
  refreshDebounced,
  refreshWaitAbandoned,
  opEnd,
  fault,
  topology,
  arrivalRejected,
]);

const TYPE_SET = new Set<string>(EVENT_TYPES);

/** validates one parsed JSON value as an event; issues carry field paths */
export function validateEvent(value: unknown): { ok: true; event: ZarisEvent } | { ok: false; issues: InputIssue[] } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return { ok: false, issues: [{ path: '', message: 'must be a JSON object (one event per line)' }] };
  }
  const type: unknown = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || !TYPE_SET.has(type)) {
    const message = type === undefined ? `required: ${oneOf(EVENT_TYPES)}` : `${oneOf(EVENT_TYPES)} (got ${shown(type)})`;
    return { ok: false, issues: [{ path: 'type', message }] };
  }
  const r = (EVENT_SCHEMAS[type as EventType] as z.ZodType<ZarisEvent>).safeParse(value);
  return r.success ? { ok: true, event: r.data } : { ok: false, issues: issuesOf(r.error) };
}

export interface NdjsonOptions {
  /** refuse text longer than this many UTF-8 bytes (default 200 MB) */
  readonly maxBytes?: number;
  /** refuse more events than this (default 5,000,000) */
  readonly maxEvents?: number;
  /** what is being read, for messages (default "events file") */
  readonly source?: string;
  /** called with the fraction of the text read, every `progressLines` lines (an import worker reports it) */
  readonly onProgress?: (fraction: number) => void;
  readonly progressLines?: number;
  /** receives each event instead of the returned array (which is then empty): e.g. straight into columnar batches */
  readonly onEvent?: (e: ZarisEvent) => void;
}

/** UTF-8 length of `text`, stopping once it exceeds `limit` */
function utf8Bytes(text: string, limit: number): number {
  let n = 0;
  for (let i = 0; i < text.length && n <= limit; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

const mb = (bytes: number): string => `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;

/** throws before reading when a file of `bytes` is over the limit (the browser knows File.size up front) */
export function assertNdjsonSize(bytes: number, maxBytes: number = NDJSON_MAX_BYTES, source = 'events file'): void {
  if (bytes > maxBytes) {
    throw new InputError(source, [{ path: '', message: `file is too large (${mb(bytes)}; at most ${mb(maxBytes)}) — nothing was read` }]);
  }
}

/**
 * Reads a JSON Lines event log (the export format and the CLI's --events
 * output). Blank lines and CRLF are accepted; events must be in time order.
 */
export function parseNdjson(text: string, options: NdjsonOptions = {}): ZarisEvent[] {
  const maxBytes = options.maxBytes ?? NDJSON_MAX_BYTES;
  const maxEvents = options.maxEvents ?? NDJSON_MAX_EVENTS;
  const source = options.source ?? 'events file';
  if (text.length > maxBytes) assertNdjsonSize(text.length, maxBytes, source);
  if (text.length * 3 > maxBytes) assertNdjsonSize(utf8Bytes(text, maxBytes), maxBytes, source);

  const events: ZarisEvent[] = [];
  const issues: InputIssue[] = [];
  const fail = (line: number, path: string, message: string): void => {
    issues.push({ path: path ? `line ${line}: ${path}` : `line ${line}`, message });
  };
  let prevT = 0;
  let prevLine = 0;
  let line = 0;
  let pos = 0;
  let count = 0;
  const every = Math.max(1, options.progressLines ?? 50_000);
  while (pos < text.length && issues.length < MAX_ISSUES) {
    line++;
    if (options.onProgress && line % every === 0) options.onProgress(pos / text.length);
    const nl = text.indexOf('\n', pos);
    const endsFile = nl === -1;
    let raw = text.slice(pos, endsFile ? text.length : nl);
    pos = endsFile ? text.length : nl + 1;
    if (raw.endsWith('\r')) raw = raw.slice(0, -1);
    if (raw.trim() === '') continue;
    if (raw.length > NDJSON_MAX_LINE_CHARS) {
      fail(line, '', `line is ${raw.length} characters long (at most ${NDJSON_MAX_LINE_CHARS}); not an event`);
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      const why = (e as Error).message;
      fail(line, '', endsFile ? `truncated or not valid JSON (the file ends inside this event?): ${why}` : `not valid JSON: ${why}`);
      continue;
    }
    let r: ReturnType<typeof validateEvent>;
    try {
      r = validateEvent(value);
    } catch (e) {
      if (!(e instanceof RangeError)) throw e;
      r = { ok: false, issues: [{ path: '', message: 'too deeply nested to be an event' }] };
    }
    if (!r.ok) {
      for (const i of r.issues) fail(line, i.path, i.message);
      continue;
    }
    if (count >= maxEvents) {
      fail(line, '', `more than ${maxEvents} events; the file is too large to import`);
      break;
    }
    if (r.event.t < prevT) {
      fail(line, 't', `events out of time order: t = ${r.event.t} is before t = ${prevT} of line ${prevLine}`);
      continue;
    }
    prevT = r.event.t;
    prevLine = line;
    count++;
    if (options.onEvent) options.onEvent(r.event);
    else events.push(r.event);
  }
  if (issues.length >= MAX_ISSUES && pos < text.length) issues.push({ path: '', message: `stopped after ${MAX_ISSUES} problems` });
  if (issues.length > 0) throw new InputError(source, issues);
  return events;
}

/** events → JSON Lines text (one event per line, trailing newline) */
export function toNdjson(events: Iterable<ZarisEvent>): string {
  let out = '';
  for (const e of events) out += toNdjsonLine(e) + '\n';
  return out;
}
