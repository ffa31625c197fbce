/**
 * The limit on this machine: a bare discrete-event loop with nothing in it
 * but a binary heap on typed arrays (Float64Array times, Int32Array
 * payloads). Each event pops the earliest time and pushes one new event a
 * pseudo-random delay later, so the heap holds a constant `pending` events
 * (the engine's heap holds a few thousand during the benchmark). No
 * closures, no allocation, no work in the "callback": events per second
 * here bound what any simulation on one core of this machine can reach.
 */

export interface LoopFigure {
  readonly events: number;
  readonly wallMs: number;
  readonly cpuMs: number;
  /** a checksum of the times popped (so the loop cannot be optimized away) */
  readonly checksum: number;
}

export function bareHeapLoop(events: number, pending = 4096, now: () => number = () => performance.now()): LoopFigure {
  const cap = pending + 1;
  const keys = new Float64Array(cap);
  const vals = new Int32Array(cap);
  let size = 0;
  let x = 0x9e3779b9 | 0;
  const rand = (): number => {
    // xorshift32 → a delay in (0, 2] ms
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return ((x >>> 0) / 4294967296) * 2 + 1e-9;
  };
  const push = (key: number, val: number): void => {
    let i = size++;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const pk = keys[parent] as number;
      if (pk <= key) break;
      keys[i] = pk;
      vals[i] = vals[parent] as number;
      i = parent;
    }
    keys[i] = key;
    vals[i] = val;
  };
  for (let i = 0; i < pending; i++) push(rand(), i);
  let checksum = 0;
  const cpu0 = process.cpuUsage();
  const t0 = now();
  for (let n = 0; n < events; n++) {
    // pop the root
    const t = keys[0] as number;
    const v = vals[0] as number;
    const lastKey = keys[--size] as number;
    const lastVal = vals[size] as number;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= size) break;
      const r = l + 1;
      const c = r < size && (keys[r] as number) < (keys[l] as number) ? r : l;
      if ((keys[c] as number) >= lastKey) break;
      keys[i] = keys[c] as number;
      vals[i] = vals[c] as number;
      i = c;
    }
    keys[i] = lastKey;
    vals[i] = lastVal;
    checksum = (checksum + v) | 0;
    push(t + rand(), v);
  }
  const wallMs = now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { events, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, checksum };
}
