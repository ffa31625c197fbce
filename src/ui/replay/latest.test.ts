import { describe, expect, it } from 'vitest';
import { latestOnly } from './latest';
import { replayDomain } from './replayDomain';

describe('replay helpers', () => {
  it('runs only the latest of many queued seeks', async () => {
    const ran: number[] = [];
    let release: () => void = () => {};
    const seek = latestOnly(async (t: number) => {
      ran.push(t);
      if (t === 1) await new Promise<void>((r) => (release = r));
    });
    const all = [seek(1), seek(2), seek(3), seek(4)];
    release();
    await Promise.all(all);
    expect(ran).toEqual([1, 4]);
  });

  it('shows the whole run on the charts when it fits the 60 s window, else 60 s around the cursor', () => {
    expect(replayDomain(5000, 16_000)).toEqual([0, 16]);
    expect(replayDomain(10_000, 120_000)).toEqual([0, 60]);
    expect(replayDomain(90_000, 120_000)).toEqual([36, 96]);
    expect(replayDomain(119_000, 120_000)).toEqual([60, 120]);
  });
});
