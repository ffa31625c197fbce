/**
 * Runs an async action for the latest argument only: while one call is in
 * flight, newer arguments replace each other and the last one runs next.
 * A scrubber drag becomes a few seeks, never a queue of hundreds.
 */
export function latestOnly<A>(run: (arg: A) => Promise<void>): (arg: A) => Promise<void> {
  let inFlight: Promise<void> | null = null;
  let pending: { arg: A } | null = null;
  let waiters: (() => void)[] = [];
  const drain = async (): Promise<void> => {
    while (pending !== null) {
      const { arg } = pending;
      pending = null;
      try {
        await run(arg);
      } catch {
        // the action reports its own errors; the queue goes on
      }
    }
    inFlight = null;
    const done = waiters;
    waiters = [];
    for (const w of done) w();
  };
  return (arg: A) => {
    pending = { arg };
    const settled = new Promise<void>((resolve) => waiters.push(resolve));
    if (inFlight === null) inFlight = drain();
    return settled;
  };
}
