/**
 * Operation id → value for in-flight operations: the `Map` subset that
 * telemetry consumers use on every event (get / set / delete / size).
 *
 * Op ids are handed out in sequence and most operations end soon after they
 * start, so the in-flight ones are nearly a sliding window of ids: a ring
 * indexed by `id & mask` holds them with no hashing and good locality. An id
 * whose ring slot is still held by a long-running older operation goes to
 * an overflow Map, so any id set works (only slower).
 */
const RING = 1 << 13;
const MASK = RING - 1;

export class OpTable<V> {
  /** the id held by each ring slot, NaN when free */
  private readonly ids = new Float64Array(RING).fill(NaN);
  private readonly values: (V | undefined)[] = new Array<V | undefined>(RING).fill(undefined);
  private readonly overflow = new Map<number, V>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  get(id: number): V | undefined {
    const i = id & MASK;
    if (this.ids[i] === id) return this.values[i];
    return this.overflow.size === 0 ? undefined : this.overflow.get(id);
  }

  has(id: number): boolean {
    return this.ids[id & MASK] === id || (this.overflow.size > 0 && this.overflow.has(id));
  }

  set(id: number, value: V): this {
    const i = id & MASK;
    const held = this.ids[i] as number;
    if (held === id) {
      this.values[i] = value;
    } else if (Number.isNaN(held) && !(this.overflow.size > 0 && this.overflow.has(id))) {
      // free slot, and the id is not already in the overflow
      this.ids[i] = id;
      this.values[i] = value;
      this.count++;
    } else {
      if (!this.overflow.has(id)) this.count++;
      this.overflow.set(id, value);
    }
    return this;
  }

  delete(id: number): boolean {
    const i = id & MASK;
    if (this.ids[i] === id) {
      this.ids[i] = NaN;
      this.values[i] = undefined;
      this.count--;
      return true;
    }
    if (this.overflow.size > 0 && this.overflow.delete(id)) {
      this.count--;
      return true;
    }
    return false;
  }
}
