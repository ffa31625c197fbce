/** Number wording for sentences and cards (charts keep their own compact axis format). */

/** a count with thousands separators: 2048 → "2,048" */
export function formatCount(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** a rate or ratio, compact: 4940 → "4.9k", 14.2 → "14", 2.46 → "2.5", 0.5 → "0.5" */
/** a count with its noun, singular for exactly one ("1 op", "2,048 ops"; `plural` when not `singular` + s) */
export function formatCounted(n: number, singular: string, plural = `${singular}s`): string {
  return `${formatCount(n)} ${n === 1 ? singular : plural}`;
}

export function formatRate(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e4) return `${Math.round(v / 1e3)}k`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  if (a >= 10) return `${Math.round(v)}`;
  return `${+v.toFixed(1)}`;
}

/**
 * A share (0–1) as a percent rounded to the nearest step of `decimals`, but never "100 %" for
 * less than all: 0.9966 → "99.7 %" (1 decimal), 0.9999 → "99.9 %" (a failure is never hidden),
 * 1 → "100 %". The served tile and the status line beside it both use it, so they agree.
 */
export function formatShare(share: number, decimals: number): string {
  const f = 10 ** decimals;
  const steps = Math.round(share * 100 * f);
  return `${(share < 1 ? Math.min(steps, 100 * f - 1) : steps) / f} %`;
}

/** ms as seconds: 2100 → "2.1 s", 60000 → "60 s", 450 → "0.45 s" */
export function formatSeconds(ms: number): string {
  const s = ms / 1000;
  if (s >= 1) return `${+s.toFixed(1)} s`;
  return `${+s.toFixed(2)} s`;
}

/**
 * A figure in the panels' compact form, three significant digits at most: 19.74 → "19.7",
 * 1234 → "1.2k", 0.1234 → "0.123". The tiles and charts show numbers this way
 * (`formatNumber`), so a sentence quoting a tile uses it too.
 */
export function formatCompact(v: number): string {
  const a = Math.abs(v);
  if (a >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (a >= 1e4) return `${Math.round(v / 1e3)}k`;
  if (a >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  if (a >= 100 || a === 0) return `${Math.round(v)}`;
  if (a >= 10) return `${+v.toFixed(1)}`;
  if (a >= 1) return `${+v.toFixed(2)}`;
  return `${+v.toFixed(3)}`;
}

/** a latency: ms under a second, seconds from there ("19.7 ms", "3.65 s"), in the compact form (never "3.6k ms") */
export function formatLatency(ms: number): string {
  return Math.abs(ms) < 1000 ? `${formatCompact(ms)} ms` : `${formatCompact(ms / 1000)} s`;
}
