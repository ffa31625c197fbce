/**
 * Typed-array columns that outgrow their length: a copy into a longer one
 * (the timer queue's slots, the telemetry sinks' per-operation columns).
 */

/** `a` copied into a longer column of `n` entries */
export function grownF64(a: Float64Array, n: number): Float64Array<ArrayBuffer> {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
export function grownI32(a: Int32Array, n: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(n);
  b.set(a);
  return b;
}
export function grownU8(a: Uint8Array, n: number): Uint8Array<ArrayBuffer> {
  const b = new Uint8Array(n);
  b.set(a);
  return b;
}
export function grownI8(a: Int8Array, n: number): Int8Array<ArrayBuffer> {
  const b = new Int8Array(n);
  b.set(a);
  return b;
}
export function grownArray<T>(a: T[], n: number, fill: T): T[] {
  const b = a.slice();
  while (b.length < n) b.push(fill);
  return b;
}
