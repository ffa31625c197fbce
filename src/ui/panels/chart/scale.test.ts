import { describe, expect, it } from 'vitest';
import { blankSignature, dataMax, dataMinPositive, groupMarkers, layoutMarkerLabels, logTicks, niceStep, niceTicks, stepBucketsFor } from './scale';

describe('nice y ticks', () => {
  it('steps by 1, 2 or 5 × 10^k and tops at the first tick at or above the data', () => {
    expect([0.3, 1, 1.1, 2.4, 3, 7, 12, 240, 725].map(niceStep)).toEqual([0.5, 1, 2, 5, 5, 10, 20, 500, 1000]);
    // the odd ticks (950 / 1.9k / 2.9k) for a maximum of 2,850
    expect(niceTicks(2_850)).toEqual({ top: 3_000, ticks: [0, 1_000, 2_000, 3_000] });
    expect(niceTicks(5_612)).toEqual({ top: 6_000, ticks: [0, 2_000, 4_000, 6_000] });
    expect(niceTicks(2)).toEqual({ top: 2, ticks: [0, 0.5, 1, 1.5, 2] });
    expect(niceTicks(0.3)).toEqual({ top: 0.3, ticks: [0, 0.1, 0.2, 0.3] });
  });

  it('covers every value and has at most target + 1 ticks', () => {
    for (const max of [0.07, 0.9, 1, 3.3, 9.99, 10, 10.01, 99, 1_001, 2_049, 14_999, 1e6 + 1]) {
      const t = niceTicks(max);
      expect(t.top).toBeGreaterThanOrEqual(max);
      expect(t.ticks.length).toBeLessThanOrEqual(5);
      expect(t.ticks[0]).toBe(0);
      expect(t.ticks.at(-1)).toBe(t.top);
    }
  });

  it('draws an empty or zero chart on 0 … 1', () => {
    expect(niceTicks(0)).toEqual({ top: 1, ticks: [0, 1] });
    expect(niceTicks(Number.NaN)).toEqual({ top: 1, ticks: [0, 1] });
  });

  it('puts log ticks on powers of ten that cover the data (p99 1.1 s needs 10 k ms)', () => {
    expect(logTicks(0.4, 1_100)).toEqual({ domain: [0.1, 10_000], ticks: [0.1, 1, 10, 100, 1_000, 10_000] });
    expect(logTicks(1, 1_000)).toEqual({ domain: [1, 1_000], ticks: [1, 10, 100, 1_000] });
    expect(logTicks(5, 5).ticks).toEqual([1, 10]);
  });
});

describe('what the chart covers', () => {
  const rows = [
    { t: 0, a: 1, b: 2, c: 5 },
    { t: 1, a: 3, b: null, c: 1 },
  ];
  it('takes a stack at its top, a line alone, and reference lines', () => {
    expect(dataMax(rows, [{ key: 'a', stack: 's' }, { key: 'b', stack: 's' }, { key: 'c' }])).toBe(5);
    expect(dataMax(rows, [{ key: 'a', stack: 's' }, { key: 'b', stack: 's' }])).toBe(3);
    expect(dataMax(rows, [{ key: 'a' }], [7])).toBe(7);
    expect(dataMinPositive(rows, ['a', 'b'])).toBe(1);
    expect(dataMinPositive([{ t: 0, a: 0 }], ['a'])).toBeNull();
  });
});

describe('decimation', () => {
  it('draws at most 120 steps per window and never steps shorter than the minimum', () => {
    expect(stepBucketsFor(600, 5)).toBe(5); // 60 s of 100 ms buckets: 500 ms steps
    expect(stepBucketsFor(30, 5)).toBe(5); // early in a session: still 500 ms
    expect(stepBucketsFor(150)).toBe(2); // 15 s: 200 ms
    expect(stepBucketsFor(6_000, 5)).toBe(50); // 10 min: 5 s steps, 120 of them
    expect(stepBucketsFor(0)).toBe(1);
    for (const n of [1, 119, 120, 121, 599, 601, 7_777]) expect(Math.ceil(n / stepBucketsFor(n))).toBeLessThanOrEqual(120);
  });
});

describe('fault label layout', () => {
  const overlaps = (a: { left: number; right: number; lane: number }, b: { left: number; right: number; lane: number }) => a.lane === b.lane && a.left < b.right && b.left < a.right;

  it('puts a label right of its line, or left of it at the right edge, never outside the chart', () => {
    const [a, b] = layoutMarkerLabels(
      [
        { x: 100, width: 60 },
        { x: 480, width: 60 },
      ],
      50,
      500,
    );
    expect(a).toMatchObject({ x: 104, lane: 0, shown: true });
    expect(b).toMatchObject({ x: 416, lane: 0, shown: true, right: 476 }); // "Failover r" / "Fallo" no more
  });

  it('stacks labels that would touch into lanes, the newest first, and leaves the oldest out when every lane is taken', () => {
    const items = [0, 10, 20, 30, 200].map((d) => ({ x: 100 + d, width: 70 }));
    const placed = layoutMarkerLabels(items, 50, 600, 3);
    expect(placed.map((p) => (p.shown ? p.lane : -1))).toEqual([-1, 2, 1, 0, 0]);
    const shown = placed.filter((p) => p.shown);
    for (const p of shown) {
      expect(p.left).toBeGreaterThanOrEqual(50);
      expect(p.right).toBeLessThanOrEqual(600);
    }
    for (let i = 0; i < shown.length; i++) for (let j = i + 1; j < shown.length; j++) expect(overlaps(shown[i] as never, shown[j] as never)).toBe(false);
  });

  it('gives lines that coincide on screen one label naming every fault, repeats counted', () => {
    const groups = groupMarkers([100, 101.5, 103, 140, 200, 200, 202.9, 206], ['Scale out', 'Scale out', 'Failover n1', 'Failback n1', 'Hang n2', 'Scale out', 'Hang n2', 'Resume n2']);
    expect(groups.map((g) => [g.first, g.count, g.text])).toEqual([
      [0, 3, 'Scale out ×2 + Failover n1'],
      [3, 1, 'Failback n1'],
      [4, 3, 'Hang n2 ×2 + Scale out'],
      [7, 1, 'Resume n2'],
    ]);
    // each part keeps a marker of its kind (for its colour); every marker is in exactly one group
    expect(groups[0]?.parts).toEqual([
      { text: 'Scale out ×2', marker: 0 },
      { text: 'Failover n1', marker: 2 },
    ]);
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(8);
    expect(groupMarkers([], [])).toEqual([]);
  });

  it("keeps the newest label at the right edge, ending at its line, and moves older ones to other lanes", () => {
    // a live chart: four faults, the last one just pressed at the plot's right edge (no room right of it)
    const items = [121, 150, 184, 218].map((x) => ({ x, width: 90 }));
    const placed = layoutMarkerLabels(items, 52, 300, 3);
    expect(placed[3]).toMatchObject({ shown: true, lane: 0, right: 214 }); // ends 4 px left of its line
    for (const [i, p] of placed.entries()) if (p.shown) expect(p.right <= (items[i]?.x ?? 0) || p.left >= (items[i]?.x ?? 0), `label ${i} across its own line`).toBe(true);
  });

  it('moves a newer label so an older one fits, instead of leaving the older one out (the failover beside three later faults)', () => {
    // placed newest first and greedily, the three later labels took all three lanes over the oldest one's line
    // (the Requests chart at 1280 px: Failover n1 unlabelled beside Scale out, Failback n1, Scale out ×2)
    const items = [
      { x: 112, width: 75 },
      { x: 124, width: 58 },
      { x: 174, width: 67 },
      { x: 239, width: 66 },
    ];
    const placed = layoutMarkerLabels(items, 52, 300, 3);
    expect(placed.map((p) => p.shown)).toEqual([true, true, true, true]);
    for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) expect(overlaps(placed[i] as never, placed[j] as never)).toBe(false);
  });

  it('shows as many labels as an exhaustive search can, on random marker sets', () => {
    let seed = 11;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const fits = (items: readonly { x: number; width: number }[], lanes: number): number => {
      // every subset, every side, every lane: the most labels that can be shown at once
      let most = 0;
      const taken: { left: number; right: number; lane: number }[] = [];
      const go = (i: number, shown: number) => {
        if (i === items.length) return void (most = Math.max(most, shown));
        const { x, width } = items[i]!;
        const lefts = [x + 4 <= 600 - width ? x + 4 : null, x - 4 - width >= 52 ? x - 4 - width : null].filter((l): l is number => l !== null);
        if (lefts.length === 0 && 52 + width <= 600) lefts.push(52);
        for (const left of lefts)
          for (let lane = 0; lane < lanes; lane++) {
            const me = { left, right: left + width, lane };
            if (taken.some((o) => o.lane === lane && !(me.right + 6 <= o.left || o.right + 6 <= me.left))) continue;
            taken.push(me);
            go(i + 1, shown + 1);
            taken.pop();
          }
        go(i + 1, shown);
      };
      go(0, 0);
      return most;
    };
    for (let run = 0; run < 150; run++) {
      const xs = Array.from({ length: 2 + Math.floor(rnd() * 5) }, () => 60 + rnd() * 300).sort((p, q) => p - q);
      const items = xs.map((x) => ({ x, width: 50 + rnd() * 60 }));
      const shown = layoutMarkerLabels(items, 52, 600, 2).filter((p) => p.shown).length;
      expect(shown, JSON.stringify(items)).toBe(fits(items, 2));
    }
  });

  it('never overlaps on random marker sets', () => {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    for (let run = 0; run < 200; run++) {
      const xs = Array.from({ length: 1 + Math.floor(rnd() * 8) }, () => 60 + rnd() * 500).sort((p, q) => p - q);
      const placed = layoutMarkerLabels(xs.map((x) => ({ x, width: 40 + rnd() * 50 })), 52, 600).filter((p) => p.shown);
      for (const p of placed) expect(p.left >= 52 && p.right <= 600).toBe(true);
      for (let i = 0; i < placed.length; i++) for (let j = i + 1; j < placed.length; j++) expect(overlaps(placed[i] as never, placed[j] as never)).toBe(false);
    }
  });
});

describe('blank charts', () => {
  it('knows a chart of zeros and gaps (drawn once, not redrawn as time moves) from one with a value', () => {
    const keys = [{ key: 'a' }, { key: 'b' }];
    expect(blankSignature([{ t: 0, a: 0, b: null }, { t: 1, a: 0, b: null }], keys)).toBe('0-');
    expect(blankSignature([{ t: 0, a: 0, b: null }, { t: 1, a: 0, b: 0.5 }], keys)).toBeNull();
    expect(blankSignature([], keys)).toBe('--');
  });
});
