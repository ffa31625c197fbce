/** Binary searches over ascending number columns (the first `n` entries of `xs`). */

/** how many entries are ≤ x */
export function upperBound(xs: ArrayLike<number>, x: number, n: number = xs.length): number {
  let a = 0;
  let b = n;
  while (a < b) {
    const m = (a + b) >> 1;
    if ((xs[m] as number) <= x) a = m + 1;
    else b = m;
  }
  return a;
}

/** how many entries are < x */
export function lowerBound(xs: ArrayLike<number>, x: number, n: number = xs.length): number {
  let a = 0;
  let b = n;
  while (a < b) {
    const m = (a + b) >> 1;
    if ((xs[m] as number) < x) a = m + 1;
    else b = m;
  }
  return a;
}
