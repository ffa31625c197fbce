/**
 * A binary min-heap of timers on typed arrays, ordered by (time, insertion
 * sequence) so that equal times fire in the order they were scheduled —
 * the property every deterministic replay depends on.
 *
 * A timer's id is `seq × 2^22 + slot`, so ids order like sequence numbers:
 * the heap is one Float64Array of (time, id) pairs, sifted without chasing
 * an index. A slot holds the callback, its optional argument and the id
 * that validates cancellations.
 */
import { grownF64, grownI32 } from '../grownColumns';

const SLOT_BITS = 2 ** 22;
const INITIAL = 1024;

/** A timer callback; `arg` is what was pushed with it (undefined for plain thunks). */
export type TimerCallback = (arg?: unknown) => void;

export class EventHeap {
  /** heap order: entry i is (keys[2i] = time, keys[2i + 1] = id) */
  private keys = new Float64Array(2 * INITIAL);
  private size = 0;
  // per slot
  private slotIds = new Float64Array(INITIAL);
  private readonly fns: (TimerCallback | null)[] = [];
  private readonly args: unknown[] = [];
  private freeSlots = new Int32Array(INITIAL);
  private freeCount = 0;
  private nextSlot = 0;
  private seq = 0;
  /** the argument pushed with the entry the last {@link pop} removed */
  poppedArg: unknown = undefined;

  get length(): number {
    return this.size;
  }

  /**
   * schedules `fn` (called as `fn(arg)`) at absolute time `at`; returns an
   * id usable with {@link cancel}
   */
  push<T>(at: number, fn: (arg: T) => void, arg?: T): number {
    const slot = this.freeCount > 0 ? (this.freeSlots[--this.freeCount] as number) : this.allocSlot();
    const id = this.seq++ * SLOT_BITS + slot;
    this.slotIds[slot] = id;
    this.fns[slot] = fn as TimerCallback;
    this.args[slot] = arg;
    if (2 * this.size === this.keys.length) this.growHeap();
    const keys = this.keys;
    // k = 2 × heap index (the time's position in keys); shifts keep it int32
    let k = this.size++ << 1;
    while (k > 0) {
      const pk = ((k - 2) >> 2) << 1;
      const pt = keys[pk] as number;
      if (pt < at || (pt === at && (keys[pk + 1] as number) < id)) break;
      keys[k] = pt;
      keys[k + 1] = keys[pk + 1] as number;
      k = pk;
    }
    keys[k] = at;
    keys[k + 1] = id;
    return id;
  }

  /** marks a pending timer as cancelled (lazy deletion) */
  cancel(id: number): void {
    const slot = slotOf(id);
    if (slot >= 0 && slot < this.nextSlot && this.slotIds[slot] === id) {
      this.fns[slot] = null;
      this.args[slot] = undefined;
    }
  }

  /** time of the earliest entry (cancelled ones included), or Infinity */
  peekTime(): number {
    return this.size === 0 ? Infinity : (this.keys[0] as number);
  }

  /**
   * removes the earliest entry; returns its callback (null when it was
   * cancelled) and leaves its argument in {@link poppedArg}
   */
  pop(): TimerCallback | null {
    const keys = this.keys;
    const top = slotOf(keys[1] as number);
    const n = --this.size;
    if (n > 0) {
      // The last entry refills the root. It nearly always belongs near the
      // bottom, so (as in libstdc++'s pop_heap) the hole first moves down
      // along the smaller children to a leaf, one comparison per level, and
      // the entry then sifts up from there.
      // positions in keys (2 × heap index), as in push
      const end = n << 1;
      const t = keys[end] as number;
      const id = keys[end + 1] as number;
      let k = 0;
      for (;;) {
        let ck = (k << 1) + 2; // left child
        if (ck >= end) break;
        let ct = keys[ck] as number;
        if (ck + 2 < end) {
          const rt = keys[ck + 2] as number;
          if (rt < ct || (rt === ct && (keys[ck + 3] as number) < (keys[ck + 1] as number))) {
            ck += 2;
            ct = rt;
          }
        }
        keys[k] = ct;
        keys[k + 1] = keys[ck + 1] as number;
        k = ck;
      }
      while (k > 0) {
        const pk = ((k - 2) >> 2) << 1;
        const pt = keys[pk] as number;
        if (pt < t || (pt === t && (keys[pk + 1] as number) < id)) break;
        keys[k] = pt;
        keys[k + 1] = keys[pk + 1] as number;
        k = pk;
      }
      keys[k] = t;
      keys[k + 1] = id;
    }
    const fn = this.fns[top] ?? null;
    this.poppedArg = this.args[top];
    this.fns[top] = null;
    this.args[top] = undefined;
    this.slotIds[top] = -1;
    this.freeSlots[this.freeCount++] = top;
    return fn;
  }

  private allocSlot(): number {
    const slot = this.nextSlot++;
    if (slot >= SLOT_BITS) throw new Error('EventHeap: more than 4M pending timers');
    if (slot >= this.slotIds.length) {
      this.slotIds = grownF64(this.slotIds, this.slotIds.length * 2);
      this.freeSlots = grownI32(this.freeSlots, this.freeSlots.length * 2);
    }
    return slot;
  }

  private growHeap(): void {
    this.keys = grownF64(this.keys, this.keys.length * 2);
  }
}

/** the slot part of an id (exact: SLOT_BITS is a power of two) */
function slotOf(id: number): number {
  return id - Math.floor(id / SLOT_BITS) * SLOT_BITS;
}
