/**
 * Deterministic sampling of operations for the bounded timeline: at level k
 * an op is kept when its hash is ≡ 0 mod 2^k, so each level keeps about half
 * of the previous one, every kept op was kept at all lower levels, and the
 * same run always gives the same sample.
 */

/** a 32-bit mix of the op id (fmix32), so samples spread over the run */
export function opHash(op: number): number {
  let h = (op ^ Math.floor(op / 2 ** 32)) >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** whether sampling at 2^k keeps `op` */
export function keepsOp(op: number, k: number): boolean {
  if (k === 0) return true;
  if (k > 32) return false;
  return opHash(op) % 2 ** k === 0;
}
