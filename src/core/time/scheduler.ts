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
