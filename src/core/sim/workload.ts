/**
 * The application driving the client: closed-loop virtual users and/or an
 * open-loop Poisson arrival process bounded by an in-flight pool. Each
 * transaction is one of get/put/delete, a CAS read-modify-write loop, or a
 * create-once. Every user has its own RNG stream, so its key sequence does
 * not depend on the client's behaviour.
 */
import type { ZarisClient } from '../client/ZarisClient';
import { KvStatus } from '../domain/status';
import type { Rng } from '../rng';
import type { Scheduler } from '../time/scheduler';
import { MIX_KINDS, type MixKind, type WorkloadConfig } from './workloadConfig';

/** Application-level counters (transport retries are counted by the client's events). */
export interface WorkloadStats {
  transactions: number;
  /** CAS loops: re-reads after Conflict (application-level, not transport retries) */
  casRereads: number;
  casSucceeded: number;
  casGaveUp: number;
  /** create-once answered Conflict: someone (maybe our own retried write) already created it */
  createOnceAlreadyDone: number;
  /** open loop: arrivals refused because the in-flight pool was full */
  rejected: number;
}

export class Workload {
  readonly stats: WorkloadStats = { transactions: 0, casRereads: 0, casSucceeded: 0, casGaveUp: 0, createOnceAlreadyDone: 0, rejected: 0 };
  private readonly keyNames: string[];
  private readonly zipfCdf: Float64Array | null;
  private readonly mixCdf: number[];
  private stopped = false;
  private inFlight = 0;
  private readonly freeSlots: number[] = [];
  private valueSeq = 0;

  constructor(
    private readonly config: WorkloadConfig,
    private readonly client: ZarisClient,
    private readonly scheduler: Scheduler,
    private readonly rng: Rng,
  ) {
    this.keyNames = Array.from({ length: config.keys }, (_, i) => `k${i}`);
    this.zipfCdf = config.distribution === 'zipf' ? zipfCdf(config.keys, config.zipfExponent) : null;
    const total = MIX_KINDS.reduce((s, k) => s + config.mix[k], 0);
    let acc = 0;
    this.mixCdf = MIX_KINDS.map((k) => (acc += total > 0 ? config.mix[k] / total : 0));
    for (let i = config.maxInFlight - 1; i >= 0; i--) this.freeSlots.push(i);
  }

  /** operations currently started by the open loop */
  get openInFlight(): number {
    return this.inFlight;
  }

  start(): void {
    for (let vu = 0; vu < this.config.concurrency; vu++) this.user(vu, this.rng.stream(100 + vu));
    if (this.config.ratePerSec > 0) this.arrive(this.rng.stream(1));
  }

  /** no new transactions from now on (in-flight ones finish) */
  stop(): void {
    this.stopped = true;
  }

  /** a closed-loop user: one transaction after another (after a think time), until stopped */
  private user(vu: number, rng: Rng): void {
    const thinkMs = this.config.thinkMs;
    const next = (): void => {
      if (this.stopped) return;
      this.transaction(vu, rng, thinkMs > 0 ? think : next);
    };
    const think = (): void => {
      this.scheduler.setTimer(thinkMs, next);
    };
    next();
  }

  private arrive(rng: Rng): void {
    const mean = 1000 / this.config.ratePerSec;
    // Arrival times follow the Poisson process exactly; a wake-up serves every
    // arrival already due (real timers are coarser than sub-ms gaps; in virtual
    // time each wake-up serves exactly one).
    let due = this.scheduler.now() + rng.exp(mean);
    const tick = (): void => {
      while (!this.stopped && due <= this.scheduler.now()) {
        const slot = this.freeSlots.pop();
        if (slot === undefined) {
          this.stats.rejected++;
        } else {
          this.inFlight++;
          this.transaction(this.config.concurrency + slot, rng, () => {
            this.inFlight--;
            this.freeSlots.push(slot);
          });
        }
        due += rng.exp(mean);
      }
      if (!this.stopped) this.scheduler.setTimer(due - this.scheduler.now(), tick);
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
        client.execute({ kind: 'get', key, vu }, done);
        return;
      case 'put':
        client.execute({ kind: 'put', key, value: this.value(vu), vu }, done);
        return;
      case 'delete':
        client.execute({ kind: 'delete', key, vu }, done);
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

  /** read, then write with ifMatchVersion; on Conflict re-read and try again */
  private cas(vu: number, key: string, rereads: number, done: () => void): void {
    this.client.execute({ kind: 'get', key, vu }, (read) => {
      if (read.status !== KvStatus.Ok && read.status !== KvStatus.NotFound) {
        done();
        return;
      }
      const cond = read.status === KvStatus.Ok ? { ifMatchVersion: read.version ?? 0 } : { ifAbsent: true };
      const next = `${read.value ?? ''}+`.slice(-32);
      this.client.execute({ kind: 'put', key, value: next, cond, vu }, (write) => {
        if (write.status === KvStatus.Ok) {
          this.stats.casSucceeded++;
          done();
        } else if (write.status === KvStatus.Conflict && rereads < this.config.casMaxRereads && !this.stopped) {
          this.stats.casRereads++;
          this.cas(vu, key, rereads + 1, done);
        } else {
          if (write.status === KvStatus.Conflict) this.stats.casGaveUp++;
          done();
        }
      });
    });
  }

  private value(vu: number): string {
    return `v${vu}.${++this.valueSeq}`;
  }
}

/** cumulative zipf distribution over ranks 1..n */
function zipfCdf(n: number, s: number): Float64Array {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / Math.pow(i + 1, s);
  for (let i = 0; i < n; i++) cdf[i] = (cdf[i] as number) / sum;
  return cdf;
}
