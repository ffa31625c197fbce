/**
 * Columnar encoding of the event stream for high-rate transfer between
 * workers and the main thread: one batch = a few typed arrays (transferable)
 * plus a small string table. Lossless: decode(encode(e)) deep-equals e.
 *
 * Column use per event type (op = -1 when null, NaN = absent):
 *   op.start        op a=segment b=vu c=deadline d=kind|ifAbsent<<4 e=budget f=ifMatchVersion s=key
 *   attempt.start   op a=attempt b=node c=epoch
 *   attempt.end     op a=attempt b=node c=latencyMs d=outcome
 *   backoff         op a=attempt c=delayMs d=outcome
 *   refresh.request op d=cause
 *   refresh.coalesced / refresh.start  op a=refresh
 *   refresh.end     a=refresh b=node c=epochBefore f=epochAfter d=ok e=fetches
 *   refresh.debounced     op a=refresh c=sinceLastMs
 *   refresh.waitAbandoned op a=refresh c=waitedMs
 *   op.end          op a=attempts c=latencyMs d=outcome e=reason f=version
 *   fault           b=node d=action s=JSON {segments, detail}
 *   topology        b=node c=epoch d=change s=JSON segments
 *   arrival.rejected a=inFlight
 *   attempt.ask     op a=segment b=node e=to
 */
import { OP_KINDS, type OpKind } from '../domain/protocol';
import { isKvStatus, OUTCOMES, OUTCOME_CODE, type KvStatus, type OpErrorCode, type Outcome } from '../domain/status';
import {
  END_REASONS,
  EVENT_TYPES,
  FAULT_ACTIONS,
  TOPOLOGY_CHANGES,
  type EventType,
  type Mutable,
  type RefreshCause,
  type ZarisEvent,
} from './events';

export interface EventBatch {
  readonly n: number;
  readonly t: Float64Array;
  readonly type: Uint8Array;
  readonly op: Float64Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  readonly c: Float64Array;
  readonly d: Int32Array;
  readonly e: Int32Array;
  readonly f: Float64Array;
  readonly s: Int32Array;
  readonly strings: readonly string[];
}

const TYPE_CODE = Object.fromEntries(EVENT_TYPES.map((t, i) => [t, i])) as Record<EventType, number>;
const CONNECT_CAUSE = 255;

const orNaN = (x: number | null | undefined): number => (x === null || x === undefined ? NaN : x);
const orMinus = (x: number | null | undefined): number => (x === null || x === undefined ? -1 : x);

/** Accumulates events into columns; `take()` hands out a batch and starts a new one. */
export class EventBatchBuilder {
  private cap: number;
  private n = 0;
  private cols!: Omit<EventBatch, 'n' | 'strings'>;
  private strings: string[] = [];

  constructor(capacity = 4096) {
    this.cap = capacity;
    this.alloc(capacity);
  }

  get length(): number {
    return this.n;
  }

  private alloc(cap: number): void {
    this.cols = {
      t: new Float64Array(cap),
      type: new Uint8Array(cap),
      op: new Float64Array(cap),
      a: new Int32Array(cap),
      b: new Int32Array(cap),
      c: new Float64Array(cap),
      d: new Int32Array(cap),
      e: new Int32Array(cap),
      f: new Float64Array(cap),
      s: new Int32Array(cap),
    };
  }

  private grow(): void {
    const old = this.cols;
    this.cap *= 2;
    this.alloc(this.cap);
    for (const k of Object.keys(old) as (keyof typeof old)[]) (this.cols[k] as Float64Array).set(old[k] as Float64Array);
  }

  private str(x: string): number {
    this.strings.push(x);
    return this.strings.length - 1;
  }

  push(ev: ZarisEvent): void {
    if (this.n === this.cap) this.grow();
    const i = this.n++;
    const c = this.cols;
    c.t[i] = ev.t;
    c.type[i] = TYPE_CODE[ev.type];
    c.op[i] = -1;
    c.a[i] = -1;
    c.b[i] = -1;
    c.c[i] = NaN;
    c.d[i] = -1;
    c.e[i] = -1;
    c.f[i] = NaN;
    c.s[i] = -1;
    switch (ev.type) {
      case 'op.start':
        c.op[i] = ev.op;
        c.a[i] = ev.segment;
        c.b[i] = orMinus(ev.vu);
        c.c[i] = orNaN(ev.deadline);
        c.d[i] = OP_KINDS.indexOf(ev.kind) | (ev.cond?.ifAbsent === true ? 16 : 0) | (ev.cond?.ifAbsent === false ? 32 : 0);
        c.e[i] = orMinus(ev.budget);
        c.f[i] = orNaN(ev.cond?.ifMatchVersion);
        c.s[i] = this.str(ev.key);
        // whether deadline was present at all (null vs absent) and cond present
        if (ev.deadline === null) c.d[i] |= 64;
        if (ev.cond !== undefined) c.d[i] |= 128;
        return;
      case 'attempt.start':
        c.op[i] = ev.op;
        c.a[i] = ev.attempt;
        c.b[i] = orMinus(ev.node);
        c.c[i] = ev.epoch;
        return;
      case 'attempt.end':
        c.op[i] = ev.op;
        c.a[i] = ev.attempt;
        c.b[i] = orMinus(ev.node);
        c.c[i] = ev.latencyMs;
        c.d[i] = OUTCOME_CODE[(ev.status ?? ev.error) as Outcome];
        return;
      case 'attempt.ask':
        c.op[i] = ev.op;
        c.a[i] = ev.segment;
        c.b[i] = ev.node;
        c.e[i] = ev.to;
        return;
      case 'backoff':
        c.op[i] = ev.op;
        c.a[i] = ev.attempt;
        c.c[i] = ev.delayMs;
        c.d[i] = OUTCOME_CODE[(ev.status ?? ev.error) as Outcome];
        return;
      case 'refresh.request':
        c.op[i] = orMinus(ev.op);
        c.d[i] = ev.cause === 'connect' ? CONNECT_CAUSE : OUTCOME_CODE[ev.cause];
        return;
      case 'refresh.coalesced':
      case 'refresh.start':
        c.op[i] = orMinus(ev.op);
        c.a[i] = ev.refresh;
        return;
      case 'refresh.end':
        c.a[i] = ev.refresh;
        c.b[i] = orMinus(ev.node);
        c.c[i] = ev.epochBefore;
        c.f[i] = ev.epochAfter;
        c.d[i] = ev.ok ? 1 : 0;
        c.e[i] = ev.fetches;
        return;
      case 'refresh.debounced':
        c.op[i] = orMinus(ev.op);
        c.a[i] = ev.refresh;
        c.c[i] = ev.sinceLastMs;
        return;
      case 'refresh.waitAbandoned':
        c.op[i] = orMinus(ev.op);
        c.a[i] = ev.refresh;
        c.c[i] = ev.waitedMs;
        return;
      case 'op.end':
        c.op[i] = ev.op;
        c.a[i] = ev.attempts;
        c.c[i] = ev.latencyMs;
        c.d[i] = OUTCOME_CODE[(ev.status ?? ev.error) as Outcome];
        c.e[i] = END_REASONS.indexOf(ev.reason);
        c.f[i] = orNaN(ev.version);
        return;
      case 'arrival.rejected':
        c.a[i] = ev.inFlight;
        return;
      case 'fault':
        c.b[i] = ev.node;
        c.d[i] = FAULT_ACTIONS.indexOf(ev.action);
        c.s[i] = this.str(JSON.stringify({ segments: ev.segments, ...(ev.detail !== undefined ? { detail: ev.detail } : {}), ...(ev.durationMs !== undefined ? { durationMs: ev.durationMs } : {}) }));
        return;
      case 'topology':
        c.b[i] = ev.node;
        c.c[i] = ev.epoch;
        c.d[i] = TOPOLOGY_CHANGES.indexOf(ev.change);
        c.s[i] = this.str(JSON.stringify(ev.segments));
        return;
    }
  }

  /** the batch so far (trimmed copies, transferable) */
  take(): EventBatch {
    const n = this.n;
    const c = this.cols;
    const batch: EventBatch = {
      n,
      t: c.t.slice(0, n),
      type: c.type.slice(0, n),
      op: c.op.slice(0, n),
      a: c.a.slice(0, n),
      b: c.b.slice(0, n),
      c: c.c.slice(0, n),
      d: c.d.slice(0, n),
      e: c.e.slice(0, n),
      f: c.f.slice(0, n),
      s: c.s.slice(0, n),
      strings: this.strings,
    };
    this.n = 0;
    this.strings = [];
    return batch;
  }
}

/** the buffers of a batch, for postMessage's transfer list */
export function transferables(b: EventBatch): ArrayBuffer[] {
  return [b.t, b.type, b.op, b.a, b.b, b.c, b.d, b.e, b.f, b.s].map((x) => x.buffer as ArrayBuffer);
}

/** event type of row i */
export function typeAt(b: EventBatch, i: number): EventType {
  return EVENT_TYPES[b.type[i] as number] as EventType;
}

const nullable = (x: number): number | null => (x === -1 ? null : x);
const outcome = (code: number): Outcome => OUTCOMES[code] as Outcome;
/** outcome code → whether it is a KvStatus (else an error code) */
const IS_STATUS: readonly boolean[] = OUTCOMES.map((o) => isKvStatus(o));

// The decoder runs for most events on the main thread (the invariant checker reads them), so it
// builds each object in one go — no spread of a temporary {status}/{error} — with the same keys
// in the same order as the event types declare them.

/** row i back to the event object */
export function decodeEvent(b: EventBatch, i: number): ZarisEvent {
  const t = b.t[i] as number;
  const op = b.op[i] as number;
  const A = b.a[i] as number;
  const B = b.b[i] as number;
  const C = b.c[i] as number;
  const D = b.d[i] as number;
  const E = b.e[i] as number;
  const F = b.f[i] as number;
  const S = b.s[i] as number;
  const type = typeAt(b, i);
  switch (type) {
    case 'op.start': {
      const e: Mutable<Extract<ZarisEvent, { type: 'op.start' }>> = { t, type, op, kind: OP_KINDS[D & 15] as OpKind, key: b.strings[S] as string, segment: A };
      if ((D & 128) !== 0) {
        const cond: { ifMatchVersion?: number; ifAbsent?: boolean } = {};
        if (!Number.isNaN(F)) cond.ifMatchVersion = F;
        if ((D & 16) !== 0) cond.ifAbsent = true;
        else if ((D & 32) !== 0) cond.ifAbsent = false;
        e.cond = cond;
      }
      if (B !== -1) e.vu = B;
      if ((D & 64) !== 0) e.deadline = null;
      else if (!Number.isNaN(C)) e.deadline = C;
      if (E !== -1) e.budget = E;
      return e;
    }
    case 'attempt.start':
      return { t, type, op, attempt: A, node: nullable(B), epoch: C };
    case 'attempt.end':
      return IS_STATUS[D]
        ? { t, type, op, attempt: A, node: nullable(B), status: outcome(D) as KvStatus, latencyMs: C }
        : { t, type, op, attempt: A, node: nullable(B), error: outcome(D) as OpErrorCode, latencyMs: C };
    case 'attempt.ask':
      return { t, type, op, node: B, to: E, segment: A };
    case 'backoff':
      return IS_STATUS[D] ? { t, type, op, attempt: A, delayMs: C, status: outcome(D) as KvStatus } : { t, type, op, attempt: A, delayMs: C, error: outcome(D) as OpErrorCode };
    case 'refresh.request':
      return { t, type, op: nullable(op), cause: (D === CONNECT_CAUSE ? 'connect' : outcome(D)) as RefreshCause };
    case 'refresh.coalesced':
      return { t, type, op: nullable(op), refresh: A };
    case 'refresh.start':
      return { t, type, refresh: A, op: nullable(op) };
    case 'refresh.end':
      return { t, type, refresh: A, ok: D === 1, epochBefore: C, epochAfter: F, node: nullable(B), fetches: E };
    case 'refresh.debounced':
      return { t, type, refresh: A, op: nullable(op), sinceLastMs: C };
    case 'refresh.waitAbandoned':
      return { t, type, op: nullable(op), refresh: A, waitedMs: C };
    case 'op.end': {
      const reason = END_REASONS[E] as (typeof END_REASONS)[number];
      if (IS_STATUS[D]) {
        const status = outcome(D) as KvStatus;
        return Number.isNaN(F) ? { t, type, op, status, attempts: A, latencyMs: C, reason } : { t, type, op, status, attempts: A, latencyMs: C, version: F, reason };
      }
      const error = outcome(D) as OpErrorCode;
      return Number.isNaN(F) ? { t, type, op, error, attempts: A, latencyMs: C, reason } : { t, type, op, error, attempts: A, latencyMs: C, version: F, reason };
    }
    case 'fault': {
      const x = JSON.parse(b.strings[S] as string) as { segments: number[]; detail?: string; durationMs?: number };
      return { t, type, action: FAULT_ACTIONS[D] as (typeof FAULT_ACTIONS)[number], node: B, segments: x.segments, ...(x.detail !== undefined ? { detail: x.detail } : {}), ...(x.durationMs !== undefined ? { durationMs: x.durationMs } : {}) };
    }
    case 'arrival.rejected':
      return { t, type, inFlight: A };
    case 'topology':
      return { t, type, epoch: C, change: TOPOLOGY_CHANGES[D] as (typeof TOPOLOGY_CHANGES)[number], node: B, segments: JSON.parse(b.strings[S] as string) as number[] };
  }
}
