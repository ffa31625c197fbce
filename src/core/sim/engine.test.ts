/**
 * The deterministic engine: same scenario + seed ⇒ the same event stream,
 * bit for bit, and the same summary; a different seed ⇒ a different run.
 * Presets are shortened to 3 s of virtual time (fault times and cluster
 * mechanics scaled) at a fifth of their load.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { OpKind } from '../domain/protocol';
import { NdjsonSink } from '../telemetry/ndjson';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';
import { SimEngine } from './engine';
import { runScenario, type RunSummary } from './runScenario';
import { loadScenario } from './scenario';
import { Recorder } from './testkit/recorder';
import { shortenedPreset } from './testkit/presetInputs';

const SHORT_MS = 3000;
/** a fifth of the presets' load (open-loop rate; closed loop: 25 ms think time) keeps these runs fast */
const LOAD = 0.2;
const short = (id: string) => shortenedPreset(id, SHORT_MS, LOAD);
const sha = (s: string): string => createHash('sha256').update(s).digest('hex');

function logged(input: unknown, options: { seed?: number; onProgress?: (f: number) => void } = {}): { ndjson: string; summary: RunSummary } {
  const chunks: string[] = [];
  const sink = new NdjsonSink((c) => chunks.push(c));
  const { summary } = runScenario(loadScenario(input), { ...options, sinks: [sink] });
  sink.flush();
  return { ndjson: chunks.join(''), summary };
}

describe('determinism', { timeout: 30_000 }, () => {
  it.each(['steady', 'failover', 'full-churn', 'lost-ack', 'refresh-storm'])('%s: two runs with the same seed give byte-identical NDJSON logs and summaries', (id) => {
    const input = short(id);
    const a = logged(input);
    const b = logged(input);
    expect(a.ndjson.length).toBeGreaterThan(10_000);
    expect(sha(b.ndjson)).toBe(sha(a.ndjson));
    expect(b.ndjson.length).toBe(a.ndjson.length);
    expect(JSON.stringify(b.summary)).toBe(JSON.stringify(a.summary));
    // the run is not trivial: operations completed, and faults (if any) happened
    expect(a.summary.ops.total).toBeGreaterThan(1000);
    expect(a.ndjson.split('\n').filter((l) => l.includes('"type":"fault"'))).toHaveLength(input.faults?.length ?? 0);
  });

  it('a different seed gives a different log and summary', () => {
    const input = short('failover');
    const one = logged(input);
    const two = logged(input, { seed: 2 });
    expect(sha(two.ndjson)).not.toBe(sha(one.ndjson));
    expect(two.summary.seed).toBe(2);
    const { seed: _s1, ...rest1 } = one.summary;
    const { seed: _s2, ...rest2 } = two.summary;
    expect(JSON.stringify(rest2)).not.toBe(JSON.stringify(rest1));
  });

  it('the --seed override is the same as writing the seed into the scenario', () => {
    const input = short('failover');
    const overridden = logged(input, { seed: 7 });
    const written = logged({ ...input, seed: 7 });
    expect(sha(overridden.ndjson)).toBe(sha(written.ndjson));
    expect(JSON.stringify(overridden.summary)).toBe(JSON.stringify(written.summary));
  });

  it('running in progress slices (as the CLI does on a terminal) changes nothing', () => {
    const input = short('full-churn');
    const fractions: number[] = [];
    const sliced = logged(input, { onProgress: (f) => fractions.push(f) });
    const whole = logged(input);
    expect(fractions).toHaveLength(100);
    expect(fractions.at(-1)).toBe(1);
    expect(fractions.every((f, i) => i === 0 || f > (fractions[i - 1] as number))).toBe(true);
    expect(sha(sliced.ndjson)).toBe(sha(whole.ndjson));
  });

  it('runTo in arbitrary steps reaches the same state as one run', () => {
    const scenario = loadScenario(short('failover'));
    const stepped = new Recorder();
    const e1 = new SimEngine(scenario, { sinks: [stepped] });
    for (const t of [0, 1, 333.3, 1000, 1000, 2500.5, 2999, 10_000]) e1.runTo(t);
    expect(e1.finished).toBe(true);
    expect(e1.now).toBe(SHORT_MS);
    const once = new Recorder();
    const e2 = new SimEngine(scenario, { sinks: [once] });
    e2.run();
    expect(JSON.stringify(stepped.events)).toBe(JSON.stringify(once.events));
    expect(e1.state.epoch).toBe(e2.state.epoch);
  });

  it('an extra observer does not change the run', () => {
    const scenario = loadScenario(short('failover'));
    const plain = runScenario(scenario).summary;
    let seen = 0;
    const counting: TelemetrySink = { emit: () => void seen++ };
    const observed = runScenario(scenario, { sinks: [counting] }).summary;
    expect(seen).toBeGreaterThan(0);
    expect(JSON.stringify(observed)).toBe(JSON.stringify(plain));
  });
});

describe('the event stream is well formed', { timeout: 30_000 }, () => {
  it('times never go backwards; every op starts once, ends at most once, attempts count up from 1', () => {
    const rec = new Recorder();
    const { summary } = runScenario(loadScenario(short('full-churn')), { sinks: [rec] });
    let last = -Infinity;
    const started = new Set<number>();
    const ended = new Set<number>();
    const attempts = new Map<number, number>();
    const problems: string[] = [];
    for (const e of rec.events) {
      if (e.t < last) problems.push(`time went back at ${JSON.stringify(e)}`);
      last = e.t;
      if (e.t > SHORT_MS + 60_000) problems.push(`event after the run: ${JSON.stringify(e)}`);
      if (e.type === 'op.start') {
        if (started.has(e.op)) problems.push(`op ${e.op} started twice`);
        started.add(e.op);
        if (e.t >= SHORT_MS + 1e-9) problems.push(`op ${e.op} started after the end`);
      } else if (e.type === 'attempt.start') {
        const prev = attempts.get(e.op) ?? 0;
        if (e.attempt !== prev + 1) problems.push(`op ${e.op}: attempt ${e.attempt} after ${prev}`);
        attempts.set(e.op, e.attempt);
      } else if (e.type === 'op.end') {
        if (!started.has(e.op) || ended.has(e.op)) problems.push(`op ${e.op} ended without start or twice`);
        ended.add(e.op);
        if (e.attempts !== (attempts.get(e.op) ?? 0)) problems.push(`op ${e.op}: ${e.attempts} attempts reported, ${attempts.get(e.op)} started`);
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
    expect(ended.size).toBe(summary.ops.total);
    expect(started.size - ended.size).toBe(summary.ops.inFlightAtEnd);
    // the run ends at durationMs: nothing is left running past it in virtual time
    expect(last).toBeLessThanOrEqual(SHORT_MS);
  });

  it('the client sees each fault: faults and topology changes are in the stream in time order with rising epochs', () => {
    const rec = new Recorder();
    runScenario(loadScenario(short('full-churn')), { sinks: [rec] });
    expect(rec.of('fault').map((f) => f.action)).toEqual(['failover', 'scaleOut', 'failback']);
    const epochs = rec.of('topology').map((e) => e.epoch);
    expect(epochs[0]).toBe(1);
    for (let i = 1; i < epochs.length; i++) expect(epochs[i]).toBeGreaterThanOrEqual(epochs[i - 1] as number);
    for (const change of ['initial', 'nodeDown', 'promoted', 'nodeJoined', 'migrationEnd', 'catchUpEnd', 'handoffStart', 'handoffEnd'] as const) {
      expect(rec.topology(change).length, change).toBeGreaterThan(0);
    }
  });
});

describe('the workload does not depend on the client', { timeout: 30_000 }, () => {
  it("a closed-loop user's key sequence is the same whatever the client does", () => {
    const base = {
      name: 'keys',
      seed: 11,
      durationMs: 1500,
      cluster: { nodes: 3, segments: 16, replicas: 1, heartbeatMs: 50, failureTimeoutMs: 300 },
      workload: { concurrency: 6, keys: 100, thinkMs: 1, mix: { get: 0.5, put: 0.3, delete: 0.2 } },
      faults: [{ atMs: 300, action: 'failover', node: 1 }],
    };
    const sequences = (client: Record<string, unknown>): Map<number, string[]> => {
      const out = new Map<number, string[]>();
      const sink: TelemetrySink = {
        emit: (e: ZarisEvent) => {
          if (e.type !== 'op.start' || e.vu === undefined) return;
          const list = out.get(e.vu) ?? [];
          list.push(`${e.kind satisfies OpKind}:${e.key}`);
          out.set(e.vu, list);
        },
      };
      runScenario(loadScenario({ ...base, client }), { sinks: [sink] });
      return out;
    };
    const a = sequences({ maxAttempts: 1 });
    const b = sequences({ maxAttempts: 6, backoffMillis: 50 });
    expect([...a.keys()].sort()).toEqual([0, 1, 2, 3, 4, 5]);
    for (const [vu, seqA] of a) {
      const seqB = b.get(vu) ?? [];
      const n = Math.min(seqA.length, seqB.length);
      expect(n).toBeGreaterThan(50);
      expect(seqB.slice(0, n)).toEqual(seqA.slice(0, n));
    }
  });
});
