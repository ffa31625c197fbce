/** The time charts' x range in the replay: the whole run when it fits the store's 60 s window, else the 60 s around the cursor. */

/** seconds the dashboard store keeps (600 × 100 ms buckets) */
export const CHART_WINDOW_SEC = 60;

export function replayDomain(cursorMs: number, durationMs: number, windowSec = CHART_WINDOW_SEC): readonly [number, number] {
  const dur = Math.max(1, durationMs / 1000);
  if (dur <= windowSec) return [0, dur];
  const end = Math.min(dur, Math.max(windowSec, cursorMs / 1000 + windowSec * 0.1));
  return [end - windowSec, end];
}

/** the replay speeds offered (0 = as fast as possible) */
export const SPEEDS: readonly number[] = [0.1, 0.25, 0.5, 1, 2, 5, 10, 0];

export const speedLabel = (s: number): string => (s === 0 ? 'max' : `${s}×`);
