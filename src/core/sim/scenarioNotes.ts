/**
 * Settings a scenario gives that cannot act in it: valid, and they change
 * nothing the run does, so they are not refused — but a reader who wrote
 * them expects an effect. One line each, naming the field, its value and
 * what would make it act. Judged over every workload in effect during the
 * run (the initial one and each scheduled change's), so a setting that acts
 * in any phase gets no note. A value equal to the default counts as not
 * given (the resolved scenario no longer says which fields were written).
 */
import type { Scenario } from './scenario';
import { DEFAULT_WORKLOAD, mergeWorkload, type WorkloadConfig } from './workloadConfig';

/** the workloads in effect during the run, in order (the initial one first) */
function workloadsInEffect(s: Scenario): WorkloadConfig[] {
  const out = [s.workload];
  let w = s.workload;
  for (const c of s.changes) {
    if (c.workload === undefined) continue;
    w = mergeWorkload(w, c.workload);
    out.push(w);
  }
  return out;
}

interface Rule {
  /** the field as the scenario names it */
  readonly field: keyof WorkloadConfig;
  /** the workload gives the field a value of its own */
  readonly given: (w: WorkloadConfig) => boolean;
  /** the field acts in this workload */
  readonly acts: (w: WorkloadConfig) => boolean;
  /** why it does not act, and what would make it */
  readonly why: string;
}

const RULES: readonly Rule[] = [
  {
    field: 'thinkMs',
    given: (w) => w.thinkMs !== DEFAULT_WORKLOAD.thinkMs,
    acts: (w) => w.thinkMs > 0 && w.concurrency > 0,
    why: 'it is the pause of a closed-loop user between operations, and the workload has no closed-loop users (concurrency 0)',
  },
  {
    field: 'zipfExponent',
    given: (w) => w.zipfExponent !== DEFAULT_WORKLOAD.zipfExponent,
    acts: (w) => w.distribution === 'zipf',
    why: 'the key distribution is "uniform"; set distribution "zipf" to use it',
  },
  {
    field: 'maxInFlight',
    given: (w) => w.maxInFlight !== DEFAULT_WORKLOAD.maxInFlight,
    acts: (w) => w.ratePerSec > 0,
    why: 'it bounds open-loop arrivals in flight, and ratePerSec is 0 (closed-loop users are bounded by concurrency)',
  },
  {
    field: 'casMaxRereads',
    given: (w) => w.casMaxRereads !== DEFAULT_WORKLOAD.casMaxRereads,
    acts: (w) => w.mix.cas > 0,
    why: 'it bounds the re-reads of a CAS loop, and the mix has no cas',
  },
];

/** one line per setting that has no effect in `s` (empty when every setting acts) */
export function scenarioNotes(s: Scenario): string[] {
  const phases = workloadsInEffect(s);
  const notes: string[] = [];
  for (const r of RULES) {
    const given = phases.filter(r.given);
    if (given.length === 0 || phases.some((w) => r.given(w) && r.acts(w))) continue;
    const values = [...new Set(given.map((w) => String(w[r.field])))];
    notes.push(`workload.${r.field} (${values.join(', ')}) has no effect: ${r.why}`);
  }
  return notes;
}
