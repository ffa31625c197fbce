/**
 * The application driving the client: closed-loop virtual users and/or an
 * open-loop Poisson arrival process bounded by an in-flight pool. Each
 * transaction is one of get/put/delete, a CAS read-modify-write loop, or a
 * create-once. Every user has its own RNG stream, so its key sequence does
 * not depend on the client's behaviour.
 */
import type { TelemetrySink } from '../telemetry/events';
import type { ZarisClient } from '../client/ZarisClient';
import { KvStatus } from '../domain/status';
import type { Rng } from '../rng';
import { SHORTEST_TIMER_MS, type Scheduler } from '../time/scheduler';
import { MIX_KINDS, type MixKind, type WorkloadConfig } from './workloadConfig';

/**
 * What the workload drives: anything that runs one operation to its end
 * (the Zaris client, or an adapter around another client such as ioredis).
 */
/** what runs the workload's operations (the Zaris client, or another client driven through an adapter); `sink` gets the workload's own events (arrivals turned away) */
export type OpExecutor = Pick<ZarisClient, 'execute'> & { readonly sink?: TelemetrySink | undefined };

/** Application-level counters (transport retries are counted by the client's events). */
export interface WorkloadStats {
  transactions: number;
  /** CAS loops: re-reads after Conflict (application-level, not transport retries) */
  casRereads: number;
  casSucceeded: number;
  casGaveUp: number;
  /** CAS loops whose re-read after Conflict showed their own value: the lost-ack retry had applied it (done, not incremented twice) */
  casOwnWriteFound: number;
  /** create-once answered Conflict: someone (maybe our own retried write) already created it */
  createOnceAlreadyDone: number;
  /** open loop: arrivals refused because the in-flight pool was full */
  rejected: number;
}

export class Workload {
  readonly stats: WorkloadStats = { transactions: 0, casRereads: 0, casSucceeded: 0, casGaveUp: 0, casOwnWriteFound: 0, createOnceAlreadyDone: 0, rejected: 0 };
  private cfg!: WorkloadConfig;
  private keyNames: string[] = [];
  private zipfCdf: Float64Array | null = null;
  private mixCdf: number[] = [];
  private started = false;
  private stopped = false;
  private paused = false;
  /**
   * Bumped by every reconfigure / pause / resume: the users and the arrival
   * process of an older generation stop at their next step (their in-flight
   * operations finish), and the new generation starts on fresh RNG streams.
   */
  private generation = 0;
  private inFlight = 0;
  /** open-loop request pool: free slot ids, and which slots an operation holds */
  private freeSlots: number[] = [];
  private slotBusy = new Uint8Array(0);
  private valueSeq = 0;
  private readonly valuePrefix: string[] = [];
  /** told, after a CAS loop's re-read, whether the Conflict of put `op` was its own earlier write (the ambiguous-write audit listens) */
  onCasConflict: ((op: number, ownWriteFound: boolean) => void) | undefined;

  constructor(
    config: WorkloadConfig,
    private readonly client: OpExecutor,
    private readonly scheduler: Scheduler,
    private readonly rng: Rng,
  ) {
    this.setConfig(config);
  }

  /** the configuration new transactions use */
  get config(): WorkloadConfig {
    return this.cfg;
  }

  private setConfig(config: WorkloadConfig): void {
    if (this.cfg === undefined || config.keys !== this.cfg.keys) this.keyNames = Array.from({ length: config.keys }, (_, i) => `k${i}`);
    this.zipfCdf = config.distribution === 'zipf' ? zipfCdf(config.keys, config.zipfExponent) : null;
    const total = MIX_KINDS.reduce((s, k) => s + config.mix[k], 0);
    let acc = 0;
    this.mixCdf = MIX_KINDS.map((k) => (acc += total > 0 ? config.mix[k] / total : 0));
    if (this.slotBusy.length < config.maxInFlight) {
      const busy = new Uint8Array(config.maxInFlight);
      busy.set(this.slotBusy);
      this.slotBusy = busy;
    }
    this.freeSlots = [];
    for (let i = config.maxInFlight - 1; i >= 0; i--) if (this.slotBusy[i] === 0) this.freeSlots.push(i);
    this.cfg = config;
  }

  /** operations currently started by the open loop */
  get openInFlight(): number {
    return this.inFlight;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    if (!this.paused) this.launch();
  }

  /** no new transactions from now on (in-flight ones finish) */
  stop(): void {
    this.stopped = true;
  }

  /**
   * a new configuration from now on: the current users and arrivals stop
   * after their in-flight transactions, new ones start with `config`
   * (open-loop slots still held count against the new pool)
   */
  reconfigure(config: WorkloadConfig): void {
    this.generation++;
    this.setConfig(config);
    if (this.started && !this.paused) this.launch();
  }

  /** no new transactions until {@link resume} (in-flight ones finish) */
  pause(): void {
    if (this.paused) return;
    this.paused = true;
    this.generation++;
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.generation++;
    if (this.started) this.launch();
  }

  get isPaused(): boolean {
    return this.paused;
  }

  /** starts the closed-loop users and the arrival process of the current generation */
  private launch(): void {
    if (this.stopped) return;
    const gen = this.generation;
    // generation 0 draws from the root streams (runs without changes are unaffected)
    const rng = gen === 0 ? this.rng : this.rng.stream(1_000_000 + gen);
    for (let vu = 0; vu < this.cfg.concurrency; vu++) this.user(vu, rng.stream(100 + vu), gen);
    if (this.cfg.ratePerSec > 0) this.arrive(rng.stream(1), gen);
  }

  /**
   * A closed-loop user: one transaction after another (after a think time), until stopped.
   * A transaction that took no time at all — the client failed it without sending anything
   * (no owner in its map, a refresh that returned at once, no retry left) — is followed by the
   * next after the shortest real timer ({@link SHORTEST_TIMER_MS}), as an application's loop
   * must yield to let anything else run: started at once, the user would issue operations at
   * one instant for ever (virtual time stopped; the call stack overflowed when the client
   * answered within the call).
   */
  private user(vu: number, rng: Rng, gen: number): void {
    const thinkMs = this.cfg.thinkMs;
    const sched = this.scheduler;
    let startedAt = 0;
    const next = (): void => {
      if (this.stopped || gen !== this.generation) return;
      startedAt = sched.now();
      this.transaction(vu, rng, thinkMs > 0 ? think : ended);
    };
    const think = (): void => {
      sched.setTimer(thinkMs, next);
    };
    const ended = (): void => {
      if (sched.now() === startedAt) sched.setTimer(SHORTEST_TIMER_MS, next);
      else next();
    };
    next();
  }

  private arrive(rng: Rng, gen: number): void {
    const mean = 1000 / this.cfg.ratePerSec;
    const lane0 = this.cfg.concurrency;
    const live = (): boolean => !this.stopped && gen === this.generation;
    // Arrival times follow the Poisson process exactly; a wake-up serves every
    // arrival already due (real timers are coarser than sub-ms gaps; in virtual
    // time each wake-up serves exactly one).
    let due = this.scheduler.now() + rng.exp(mean);
    const tick = (): void => {
      while (live() && due <= this.scheduler.now()) {
        const slot = this.freeSlots.pop();
        if (slot === undefined) {
          this.stats.rejected++;
          this.client.sink?.emit({ t: this.scheduler.now(), type: 'arrival.rejected', inFlight: this.inFlight });
        } else {
          this.inFlight++;
          this.slotBusy[slot] = 1;
          this.transaction(lane0 + slot, rng, () => {
            this.inFlight--;
            this.slotBusy[slot] = 0;
            if (slot < this.cfg.maxInFlight) this.freeSlots.push(slot);
          });
        }
        due += rng.exp(mean);
      }
      if (live()) this.scheduler.setTimer(due - this.scheduler.now(), tick);
    };
    this.scheduler.setTimer(due - this.scheduler.now(), tick);
  }

  private pickKey(rng: Rng): string {
    const cdf = this.zipfCdf;
    if (cdf === null) return this.keyNames[Math.floor(rng.next() * this.keyNames.length)] as string;
    const u = rng.next();
    let lo = 0;
    let hi = cdf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cdf[mid] as number) < u) lo = mid + 1;
      else hi = mid;
    }
    return this.keyNames[lo] as string;
  }

  private pickKind(rng: Rng): MixKind {
    const u = rng.next();
    for (let i = 0; i < MIX_KINDS.length; i++) if (u < (this.mixCdf[i] as number)) return MIX_KINDS[i] as MixKind;
    return 'get';
  }

  private transaction(vu: number, rng: Rng, done: () => void): void {
    this.stats.transactions++;
    const key = this.pickKey(rng);
    const kind = this.pickKind(rng);
    const client = this.client;
    switch (kind) {
      case 'get':
        client.execute({ kind: 'get', key, value: undefined, cond: undefined, vu }, done);
        return;
      case 'put':
        client.execute({ kind: 'put', key, value: this.value(vu), cond: undefined, vu }, done);
        return;
      case 'delete':
        client.execute({ kind: 'delete', key, value: undefined, cond: undefined, vu }, done);
        return;
      case 'createOnce':
        client.execute({ kind: 'put', key, value: this.value(vu), cond: { ifAbsent: true }, vu }, (r) => {
          if (r.status === KvStatus.Conflict) this.stats.createOnceAlreadyDone++;
          done();
        });
        return;
      case 'cas':
        this.cas(vu, key, 0, done);
        return;
    }
  }

  /**
   * An increment as read-modify-write: read, then write the next count with
   * ifMatchVersion (ifAbsent for a new key); on Conflict re-read and try
   * again. Each value carries the count and the tags of its last
   * {@link CAS_TAGS} writers (one unique tag per write), so after a Conflict
   * the re-read tells "my own earlier attempt already applied it" (a lost
   * acknowledgement, retried by the client) from "someone else won": seeing
   * its own tag, the loop is done instead of incrementing twice. (If more
   * writers followed than the value remembers, it increments again — the
   * ambiguous-write audit reports exactly those.)
   */
  private cas(vu: number, key: string, rereads: number, done: () => void, after?: { readonly op: number; readonly mine: string }): void {
    this.client.execute({ kind: 'get', key, value: undefined, cond: undefined, vu }, (read) => {
      if (read.status !== KvStatus.Ok && read.status !== KvStatus.NotFound) {
        done();
        return;
      }
      if (after !== undefined) {
        const own = read.status === KvStatus.Ok && hasCasTag(read.value, after.mine);
        this.onCasConflict?.(after.op, own);
        if (own) {
          this.stats.casOwnWriteFound++;
          this.stats.casSucceeded++;
          done();
          return;
        }
      }
      const cond = read.status === KvStatus.Ok ? { ifMatchVersion: read.version ?? 0 } : { ifAbsent: true };
      const tag = this.value(vu);
      const next = nextCasValue(read.value, tag);
      this.client.execute({ kind: 'put', key, value: next, cond, vu }, (write) => {
        if (write.status === KvStatus.Ok) {
          this.stats.casSucceeded++;
          done();
        } else if (write.status === KvStatus.Conflict && rereads < this.cfg.casMaxRereads && !this.stopped) {
          this.stats.casRereads++;
          this.cas(vu, key, rereads + 1, done, { op: write.op, mine: tag });
        } else {
          if (write.status === KvStatus.Conflict) this.stats.casGaveUp++;
          done();
        }
      });
    });
  }

  /** `v<vu>.<n>`, a fresh n per write (the lane's prefix is built once) */
  private value(vu: number): string {
    const prefix = this.valuePrefix[vu] ?? (this.valuePrefix[vu] = `v${vu}.`);
    return prefix + String(++this.valueSeq);
  }
}

/** writer tags a CAS value remembers */
export const CAS_TAGS = 8;

/** the writer tags of a CAS value (`<count>:<tag>,<tag>,…`, newest first; none for a plain put's value) */
export function casTags(value: string | undefined): string[] {
  if (value === undefined) return [];
  const colon = value.indexOf(':');
  return colon > 0 ? value.slice(colon + 1).split(',') : [];
}

/** the CAS value after `value` written by `tag`: the count + 1, `tag` first, the older tags after it (string scans, no arrays: this runs on every CAS write) */
export function nextCasValue(value: string | undefined, tag: string): string {
  if (value === undefined) return `1:${tag}`;
  const colon = value.indexOf(':');
  if (colon <= 0) return `1:${tag}`;
  // keep the first CAS_TAGS - 1 older tags
  let end = colon;
  for (let n = 0; n < CAS_TAGS - 1; n++) {
    end = value.indexOf(',', end + 1);
    if (end < 0) {
      end = value.length;
      break;
    }
  }
  // the count: digits before the colon (parsed by hand — no substring, no Number())
  let count = 0;
  for (let i = 0; i < colon; i++) {
    const d = value.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return `1:${tag}`;
    count = count * 10 + d;
  }
  return `${count + 1}:${tag},${value.slice(colon + 1, end)}`;
}

/** `value` carries `tag` among its writer tags */
export function hasCasTag(value: string | undefined, tag: string): boolean {
  return value !== undefined && casTags(value).includes(tag);
}

/** the counter a CAS value carries (`<count>:<tags>`; 0 for none or a plain put's value) */
export function casCount(value: string | undefined): number {
  if (value === undefined) return 0;
  const colon = value.indexOf(':');
  const n = colon > 0 ? Number(value.slice(0, colon)) : NaN;
  return Number.isSafeInteger(n) && n >= 0 ? n : 0;
}

/** cumulative zipf distribution over ranks 1..n */
function zipfCdf(n: number, s: number): Float64Array {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  for (let i = 0; i < n; i++) cdf[i] = (cdf[i] as number) / sum;
  return cdf;
}
