import { describe, expect, it } from 'vitest';
import {
  applyKey,
  around,
  clampViewport,
  formatDuration,
  formatTick,
  fromBrush,
  fullViewport,
  keyAction,
  MIN_SPAN_MS,
  niceTicks,
  panBy,
  panByPixels,
  scrollLanes,
  timeToX,
  wheelZoomFactor,
  xToTime,
  zoomAt,
} from './viewport';

const B = { min: 0, max: 16_000 };

describe('timeline viewport', () => {
  it('clamps into the bounds, keeping the span, and never below the minimum span', () => {
    expect(clampViewport({ t0: -500, t1: 1500 }, B)).toEqual({ t0: 0, t1: 2000 });
    expect(clampViewport({ t0: 15_500, t1: 17_500 }, B)).toEqual({ t0: 14_000, t1: 16_000 });
    expect(clampViewport({ t0: -1, t1: 99_999 }, B)).toEqual({ t0: 0, t1: 16_000 });
    const tiny = clampViewport({ t0: 100, t1: 100.1 }, B);
    expect(tiny.t1 - tiny.t0).toBe(MIN_SPAN_MS);
    expect(fullViewport(B)).toEqual({ t0: 0, t1: 16_000 });
  });

  it('zooms around the anchor: the time under the pointer stays put', () => {
    const v = { t0: 2000, t1: 10_000 };
    for (const anchor of [0, 0.25, 0.5, 0.9]) {
      const before = v.t0 + anchor * (v.t1 - v.t0);
      const z = zoomAt(v, 2, anchor, B);
      expect(z.t1 - z.t0).toBeCloseTo(4000);
      expect(z.t0 + anchor * (z.t1 - z.t0)).toBeCloseTo(before);
    }
    // zooming out past the run shows the run
    expect(zoomAt(v, 0.01, 0.5, B)).toEqual({ t0: 0, t1: 16_000 });
  });

  it('pans by a fraction, by pixels (drag right = back in time), and stops at the edges', () => {
    const v = { t0: 4000, t1: 8000 };
    expect(panBy(v, 0.5, B)).toEqual({ t0: 6000, t1: 10_000 });
    expect(panByPixels(v, 100, 400, B)).toEqual({ t0: 3000, t1: 7000 });
    expect(panBy(v, -10, B)).toEqual({ t0: 0, t1: 4000 });
  });

  it('maps time and pixels both ways', () => {
    const v = { t0: 1000, t1: 3000 };
    expect(timeToX(v, 2000, 100, 400)).toBe(300);
    expect(xToTime(v, 300, 100, 400)).toBe(2000);
  });

  it('turns a brush (either direction) into a viewport', () => {
    expect(fromBrush(9000, 5000, B)).toEqual({ t0: 5000, t1: 9000 });
    expect(around(5000, 500, 5500, B)).toEqual({ t0: 4500, t1: 10_500 });
    expect(around(15_000, 500, 5500, B)).toEqual({ t0: 10_000, t1: 16_000 });
  });

  it('maps keys like trace viewers do, and wheel deltas to zoom factors', () => {
    expect(['w', '+', 's', '-', 'a', 'ArrowRight', '0', 'x'].map(keyAction)).toEqual(['zoomIn', 'zoomIn', 'zoomOut', 'zoomOut', 'panLeft', 'panRight', 'reset', null]);
    const v = { t0: 4000, t1: 8000 };
    expect(applyKey(v, 'reset', B)).toEqual(B.max === 16_000 ? { t0: 0, t1: 16_000 } : v);
    expect(applyKey(v, 'zoomIn', B).t1 - applyKey(v, 'zoomIn', B).t0).toBeCloseTo(3200);
    expect(wheelZoomFactor(-100)).toBeGreaterThan(1);
    expect(wheelZoomFactor(100)).toBeLessThan(1);
    expect(wheelZoomFactor(-100) * wheelZoomFactor(100)).toBeCloseTo(1);
  });

  it('scrolls lanes without leaving an empty last page', () => {
    expect(scrollLanes(0, -3, 100, 20)).toBe(0);
    expect(scrollLanes(70, 50, 100, 20)).toBe(80);
    expect(scrollLanes(5, 2.4, 100, 20)).toBe(7);
    expect(scrollLanes(0, 5, 10, 20)).toBe(0);
  });

  it('picks nice tick steps and labels them by scale', () => {
    expect(niceTicks({ t0: 0, t1: 16_000 }, 8)).toEqual({ step: 2000, ticks: [0, 2000, 4000, 6000, 8000, 10_000, 12_000, 14_000, 16_000] });
    const fine = niceTicks({ t0: 5000.1, t1: 5001.1 }, 5);
    expect(fine.step).toBe(0.2);
    expect(fine.ticks[0]).toBeCloseTo(5000.2);
    expect(fine.ticks).toHaveLength(5);
    expect(formatTick(4000, 2000)).toBe('4 s');
    expect(formatTick(4500, 500)).toBe('4.5 s');
    expect(formatTick(5003, 1)).toBe('5003 ms');
    expect(formatTick(5000.4, 0.2)).toBe('5000.4 ms');
    expect(formatDuration(0.7)).toBe('700 µs');
    expect(formatDuration(2.41)).toBe('2.41 ms');
    expect(formatDuration(600)).toBe('600 ms');
    expect(formatDuration(4513.8)).toBe('4.51 s');
  });
});
