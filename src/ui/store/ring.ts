/** A bounded FIFO: pushing into a full ring overwrites the oldest item. */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private size = 0;

  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  get length(): number {
    return this.size;
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.size < this.capacity) this.size++;
  }

  /** a fresh array, oldest first */
  toArray(): T[] {
    const out = new Array<T>(this.size);
    const start = (this.next - this.size + this.capacity) % this.capacity;
    for (let i = 0; i < this.size; i++) out[i] = this.items[(start + i) % this.capacity] as T;
    return out;
  }

  clear(): void {
    this.items.fill(undefined);
    this.next = 0;
    this.size = 0;
  }
}
