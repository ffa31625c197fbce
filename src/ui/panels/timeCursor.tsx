/**
 * The replay's one time cursor, as seen by the panels: when a view provides
 * it, every time chart uses the given x range (the whole run) and draws a
 * cursor line at the replay time. The live dashboard provides none.
 */
import { createContext, useContext } from 'react';

export interface TimeCursor {
  /** seconds since run start */
  readonly cursorSec: number;
  /** the x range every time chart shows, seconds */
  readonly domain: readonly [number, number];
}

export const TimeCursorContext = createContext<TimeCursor | null>(null);

export function useTimeCursor(): TimeCursor | null {
  return useContext(TimeCursorContext);
}
