/**
 * Operation id → a dense slot index, for consumers that keep each in-flight
 * operation's fields in typed-array columns instead of one object per
 * operation. Every event of a run passes the telemetry sinks; an object per
 * operation that lives until the operation ends is copied by the young
 * generation's collector at every scavenge it lives through, and columns
 * cost the collector nothing.
 *
 * Op ids are handed out in sequence and most operations end soon after
 * they start, so an id's slot is `id & mask` in a ring; an id whose ring
 * slot is still held by a long-running older operation gets a slot past the
 * ring (a Map finds it), so any id set works (only slower). The ring is small (2,048 ids: the columns of the three
 * sinks stay in the cache; a larger ring measured slower although fewer ids
 * spill; 1,024 measured ≈ 1.4 % faster on the benchmark's scenario, near the noise, and would spill a storm's 2,048
 * long-running ids). The owner's columns hold {@link capacity} entries: when
 * overflow slots run out, the capacity doubles and `onGrow` is called to
 * grow the columns (copy them with `grownF64` and friends, `core/grownColumns.ts`).
 */
/** ids the ring holds */
export const OP_SLOT_RING = 1 << 11;
const RING = OP_SLOT_RING;
const MASK = RING - 1;

export class OpSlots {
  /** the id held by each ring slot, NaN when free */
  private readonly ids = new Float64Array(RING).fill(NaN);
  /** ids past the ring → their slot (≥ RING) */
  private readonly overflow = new Map<number, number>();
  private readonly freeOverflow: number[] = [];
  private nextOverflow = RING;
  private count = 0;
  /** slots the owner's columns must hold */
  capacity = 2 * RING;

  constructor(private readonly onGrow: (capacity: number) => void) {}

  /** operations held */
  get size(): number {
    return this.count;
  }

  /** the slot of `id`, or -1 when it is not held */
  slotOf(id: number): number {
    const i = id & MASK;
    if (this.ids[i] === id) return i;
    if (this.overflow.size === 0) return -1;
    return this.overflow.get(id) ?? -1;
  }

  /** the slot of `id`, taking a free one when it is not held yet (the caller initializes its fields) */
  add(id: number): number {
    const held = this.slotOf(id);
    if (held >= 0) return held;
    this.count++;
    const i = id & MASK;
    if (Number.isNaN(this.ids[i] as number)) {
      this.ids[i] = id;
      return i;
    }
    let slot = this.freeOverflow.pop();
    if (slot === undefined) {
      slot = this.nextOverflow++;
      if (slot >= this.capacity) {
        this.capacity *= 2;
        this.onGrow(this.capacity);
      }
    }
    this.overflow.set(id, slot);
    return slot;
  }

  /** calls `fn` with the slot of every operation held (in no particular order) */
  forEachSlot(fn: (slot: number) => void): void {
    for (let i = 0; i < RING; i++) if (!Number.isNaN(this.ids[i] as number)) fn(i);
    for (const slot of this.overflow.values()) fn(slot);
  }

  /** releases `id`'s slot (no-op when it is not held) */
  delete(id: number): void {
    const i = id & MASK;
    if (this.ids[i] === id) {
      this.ids[i] = NaN;
      this.count--;
      return;
    }
    if (this.overflow.size === 0) return;
    const slot = this.overflow.get(id);
    if (slot === undefined) return;
    this.overflow.delete(id);
    this.freeOverflow.push(slot);
    this.count--;
  }
}
