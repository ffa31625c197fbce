/** Opaque handle of a scheduled timer. */
export type TimerId = number;

/**
 * The only way the core reads time or waits. Virtual in simulation and tests
 * ({@link VirtualScheduler}), real in workers (`src/platform/realScheduler.ts`).
 */
export interface Scheduler {
  /** ms since the run started */
  now(): number;
  /** runs `fn` once after `delayMs` (clamped to ≥ 0) */
  setTimer(delayMs: number, fn: () => void): TimerId;
  /** cancels a timer; unknown or already fired ids are ignored */
  clearTimer(id: TimerId): void;
}

/**
 * The shortest wait a real timer gives, ms: the platform timers of Node and
 * browsers fire a delay below 1 ms 1 ms later. Virtual time has no such
 * floor, so the core uses it where a loop with nothing else to wait on must
 * still let time move (a retry loop bounded by its deadline alone, a
 * closed-loop user whose operation took no time).
 */
export const SHORTEST_TIMER_MS = 1;
