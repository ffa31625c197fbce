import { describe, expect, it } from 'vitest';
import { lowerBound, upperBound } from './sortedSearch';

describe('sorted searches', () => {
  it('count the entries below / at most x, ties and ends included, over the first n only', () => {
    const xs = [1, 2, 2, 2, 5, 9];
    expect([0, 1, 2, 3, 9, 10].map((x) => lowerBound(xs, x))).toEqual([0, 0, 1, 4, 5, 6]);
    expect([0, 1, 2, 3, 9, 10].map((x) => upperBound(xs, x))).toEqual([0, 1, 4, 4, 6, 6]);
    const col = Float64Array.from([1, 2, 3, 0, 0]);
    expect(upperBound(col, 10, 3)).toBe(3);
    expect(lowerBound(col, 3, 3)).toBe(2);
    expect(upperBound([], 1)).toBe(0);
  });
});
