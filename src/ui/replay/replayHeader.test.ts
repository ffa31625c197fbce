import { describe, expect, it } from 'vitest';
import { withSchedule } from './ReplayHeader';

describe('the replay header', () => {
  it('names the scheduled changes by kind: a recording of Start / Pause / Start is not "configuration changes"', () => {
    expect(withSchedule('5000/s open loop', [])).toBe('5000/s open loop');
    expect(withSchedule('w', [{ atMs: 0, paused: true }, { atMs: 3000, paused: false }, { atMs: 8000, paused: true }, { atMs: 11000, paused: false }])).toBe('w · 4 scheduled changes: 4 pause / resume');
    expect(withSchedule('w', [{ atMs: 5000, client: { maxAttempts: 5 } }, { atMs: 8000, paused: true }])).toBe('w · 2 scheduled changes: 1 of settings or toggles, 1 pause / resume (settings and toggles as at the cursor)');
  });
});
