/**
 * Many deadlines on ONE real timer: a binary min-heap of (due, id) and a
 * single `setTimeout` armed for the earliest due time. The transport used to
 * set and clear one real timer per request (≈ 13 % of the client worker's CPU
 * in a profile at 10 k ops/s); here adding a deadline is a heap push, and an
 * answered request costs nothing (its entry is skipped when it comes due, and
 * the heap is compacted if answered entries pile up).
 *
 * Deadlines fire in (due, id) order — the order separate timers would fire
 * in — each no earlier than its due time; all deadlines due when the timer
 * runs fire in that one task.
 */
export class DeadlineTimers {
  /** heap of due times (ms, `now()` clock) and, in parallel, ids */
  private dues: number[] = [];
  private ids: number[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  /** due time the real timer is armed for (Infinity: none) */
  private armedFor = Infinity;

  constructor(
    private readonly now: () => number,
    /** called once per deadline that comes due; `live(id)` false entries are skipped */
    private readonly fire: (id: number) => void,
    /** whether an id still wants its deadline (false once answered) */
    private readonly live: (id: number) => boolean,
    /** live entries the heap holds at least, before compaction is considered */
    private readonly liveCount: () => number,
  ) {}

  /** deadlines held (live or not) */
  get size(): number {
    return this.dues.length;
  }

  /** fires `id` after `delayMs` (ids must increase with each call: they break ties) */
  add(id: number, delayMs: number): void {
    const due = this.now() + Math.max(0, delayMs);
    this.push(due, id);
    if (this.dues.length > 4096 && this.dues.length > 4 * this.liveCount()) this.compact();
    if (due < this.armedFor) this.arm();
  }

  /** cancels the real timer and forgets every deadline */
  clear(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
    this.dues = [];
    this.ids = [];
  }

  private arm(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.armedFor = Infinity;
    if (this.dues.length === 0) return;
    const due = this.dues[0] as number;
    this.armedFor = due;
    this.timer = setTimeout(() => this.run(), Math.max(0, Math.ceil(due - this.now())));
  }

  private run(): void {
    this.timer = null;
    this.armedFor = Infinity;
    const t = this.now();
    while (this.dues.length > 0 && (this.dues[0] as number) <= t) {
      const id = this.ids[0] as number;
      this.pop();
      if (this.live(id)) this.fire(id);
    }
    this.arm();
  }

  /** drops entries whose request was answered, and rebuilds the heap */
  private compact(): void {
    const dues: number[] = [];
    const ids: number[] = [];
    for (let i = 0; i < this.ids.length; i++) {
      const id = this.ids[i] as number;
      if (!this.live(id)) continue;
      dues.push(this.dues[i] as number);
      ids.push(id);
    }
    this.dues = dues;
    this.ids = ids;
    for (let i = (dues.length >> 1) - 1; i >= 0; i--) this.down(i);
  }

  private less(i: number, j: number): boolean {
    const a = this.dues[i] as number;
    const b = this.dues[j] as number;
    return a < b || (a === b && (this.ids[i] as number) < (this.ids[j] as number));
  }

  private swap(i: number, j: number): void {
    const d = this.dues[i] as number;
    this.dues[i] = this.dues[j] as number;
    this.dues[j] = d;
    const x = this.ids[i] as number;
    this.ids[i] = this.ids[j] as number;
    this.ids[j] = x;
  }

  private push(due: number, id: number): void {
    this.dues.push(due);
    this.ids.push(id);
    let i = this.dues.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(i, p)) break;
      this.swap(i, p);
      i = p;
    }
  }

  private pop(): void {
    const last = this.dues.length - 1;
    this.swap(0, last);
    this.dues.pop();
    this.ids.pop();
    this.down(0);
  }

  private down(i: number): void {
    const n = this.dues.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const m = r < n && this.less(r, l) ? r : l;
      if (!this.less(m, i)) return;
      this.swap(i, m);
      i = m;
    }
  }
}
