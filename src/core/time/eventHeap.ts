/**
 * A binary min-heap of timers on typed arrays, ordered by (time, insertion
 * sequence) so that equal times fire in the order they were scheduled —
 * the property every deterministic replay depends on.
 */
const SLOT_BITS = 2 ** 22;

export class EventHeap {
  private times = new Float64Array(1024);
  private seqs = new Float64Array(1024);
  private fns: Array<(() => void) | null> = [];
  private heap = new Int32Array(1024);
  private size = 0;
  private freeSlots: number[] = [];
  private nextSlot = 0;
  private seq = 0;

  get length(): number {
    return this.size;
  }

  /** schedules `fn` at absolute time `at`; returns an id usable with {@link cancel} */
  push(at: number, fn: () => void): number {
    const slot = this.freeSlots.length > 0 ? (this.freeSlots.pop() as number) : this.allocSlot();
    const seq = this.seq++;
    this.times[slot] = at;
    this.seqs[slot] = seq;
    this.fns[slot] = fn;
    if (this.size === this.heap.length) this.heap = grow(this.heap, this.heap.length * 2);
    let i = this.size++;
    const heap = this.heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      const p = heap[parent] as number;
      if (!this.less(slot, p)) break;
      heap[i] = p;
      i = parent;
    }
    heap[i] = slot;
    return seq * SLOT_BITS + slot;
  }

  /** marks a pending timer as cancelled (lazy deletion) */
  cancel(id: number): void {
    const slot = id % SLOT_BITS;
    const seq = (id - slot) / SLOT_BITS;
    if (slot < this.nextSlot && this.seqs[slot] === seq) this.fns[slot] = null;
  }

  /** time of the earliest entry (cancelled ones included), or Infinity */
  peekTime(): number {
    return this.size === 0 ? Infinity : (this.times[this.heap[0] as number] as number);
  }

  /** removes the earliest entry; returns its callback (null when it was cancelled) */
  pop(): (() => void) | null {
    const heap = this.heap;
    const top = heap[0] as number;
    const last = heap[--this.size] as number;
    if (this.size > 0) {
      let i = 0;
      const n = this.size;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        let c = l;
        if (r < n && this.less(heap[r] as number, heap[l] as number)) c = r;
        if (!this.less(heap[c] as number, last)) break;
        heap[i] = heap[c] as number;
        i = c;
      }
      heap[i] = last;
    }
    const fn = this.fns[top] ?? null;
    this.fns[top] = null;
    this.seqs[top] = -1;
    this.freeSlots.push(top);
    return fn;
  }

  private less(a: number, b: number): boolean {
    const ta = this.times[a] as number;
    const tb = this.times[b] as number;
    return ta < tb || (ta === tb && (this.seqs[a] as number) < (this.seqs[b] as number));
  }

  private allocSlot(): number {
    const slot = this.nextSlot++;
    if (slot >= SLOT_BITS) throw new Error('EventHeap: more than 4M pending timers');
    if (slot >= this.times.length) {
      this.times = growF(this.times, this.times.length * 2);
      this.seqs = growF(this.seqs, this.seqs.length * 2);
    }
    return slot;
  }
}

function grow(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
function growF(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
