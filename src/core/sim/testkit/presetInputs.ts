/**
 * Preset inputs for tests: a preset's scenario input by id, optionally
 * shortened (fault times and fault durations scaled with the run) so that
 * determinism and engine tests stay fast. Pure, used only by tests.
 */
import { findPreset } from '../presets';

export interface PresetInput {
  readonly name: string;
  readonly seed: number;
  readonly durationMs: number;
  readonly faults?: readonly Readonly<Record<string, unknown> & { atMs: number; durationMs?: number }>[];
  readonly cluster?: Readonly<Record<string, unknown>>;
  readonly [field: string]: unknown;
}

/** the preset's scenario input (a copy); throws for an unknown id */
export function presetInput(id: string): PresetInput {
  const preset = findPreset(id);
  if (preset === undefined) throw new Error(`no preset ${id}`);
  return JSON.parse(JSON.stringify(preset.input)) as PresetInput;
}

/**
 * The preset squeezed into `durationMs`: every fault time (and fault
 * duration) scaled by the same factor, and the cluster's mechanics (failure
 * detection, migration, catch-up, handoff) sped up by it too, so the same
 * story happens in less virtual time. `load` scales the workload's load
 * (open-loop rate, or closed-loop think time) to keep tests fast.
 */
export function shortenedPreset(id: string, durationMs: number, load = 1): PresetInput {
  const input = presetInput(id);
  const k = durationMs / input.durationMs;
  const faults = (input.faults ?? []).map((f) => ({
    ...f,
    atMs: Math.round(f.atMs * k),
    ...(f.durationMs !== undefined ? { durationMs: Math.round(f.durationMs * k) } : {}),
  }));
  return {
    ...input,
    durationMs,
    faults,
    cluster: {
      ...input.cluster,
      heartbeatMs: Math.max(10, Math.round(500 * k)),
      failureTimeoutMs: Math.round(3500 * k),
      migrationBaseMs: 200 * k,
      migrationMsPerKey: 0.5 * k,
      catchUpBaseMs: 500 * k,
      catchUpMsPerKey: 0.2 * k,
      handoffMs: 300 * k,
    },
    workload: lighter((input.workload ?? {}) as Readonly<Record<string, unknown>>, load),
  };
}

function lighter(workload: Readonly<Record<string, unknown>>, load: number): Readonly<Record<string, unknown>> {
  if (load === 1) return workload;
  if (typeof workload.ratePerSec === 'number' && workload.ratePerSec > 0) return { ...workload, ratePerSec: Math.round(workload.ratePerSec * load) };
  return { ...workload, thinkMs: Math.max(Number(workload.thinkMs ?? 0), 5 / load) };
}
