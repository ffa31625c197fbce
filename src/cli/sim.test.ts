/**
 * The headless CLI (SPEC §10), run as a real process:
 * `node --import tsx src/cli/sim.ts <scenario.json | preset> [--seed N] [--json] [--events FILE] [--strict]`.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { PRESET_IDS } from '../core/sim/presets';
import { EVENT_TYPES } from '../core/telemetry/events';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW = 60_000;
const tmp = mkdtempSync(join(tmpdir(), 'zaris-cli-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** the environment without any ZARIS_ setting of the caller */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ZARIS_')) env[k] = v;
  return { ...env, ...extra };
}

function sim(args: readonly string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', ...args], {
    cwd: ROOT,
    env: cleanEnv(env),
    encoding: 'utf8',
    timeout: SLOW,
    maxBuffer: 64 * 1024 * 1024,
  });
  if (r.error) throw r.error;
  return r;
}

function scenarioFile(name: string, content: unknown): string {
  const file = join(tmp, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

/** a short scenario, cheap to run */
const SHORT = {
  name: 'short',
  seed: 3,
  durationMs: 1500,
  cluster: { nodes: 3, segments: 16, replicas: 1, heartbeatMs: 50, failureTimeoutMs: 300 },
  workload: { concurrency: 8, thinkMs: 2, keys: 100, mix: { get: 0.5, put: 0.3, cas: 0.1, createOnce: 0.1 } },
  faults: [{ atMs: 500, action: 'failover', node: 1 }],
};

describe('steady --json', () => {
  let first: SpawnSyncReturns<string>;

  it(
    'exits 0 and prints a JSON summary with the SPEC §10 fields',
    () => {
      first = sim(['steady', '--json']);
      expect(first.stderr).toBe('');
      expect(first.status).toBe(0);
      const s = JSON.parse(first.stdout) as Record<string, Record<string, unknown>>;
      expect(s.scenario).toBe('steady');
      expect(s.seed).toBe(1);
      expect(s.ops).toEqual(expect.objectContaining({ total: expect.any(Number), ok: expect.any(Number), failed: 0, byStatus: expect.any(Object) }));
      expect(s.ops?.total).toBeGreaterThan(10_000);
      expect(s.attempts).toEqual(expect.objectContaining({ total: expect.any(Number), retries: 0, maxPerOp: 1, histogram: expect.any(Object) }));
      expect(s.statuses).toEqual(expect.objectContaining({ Ok: expect.any(Number), Moved: 0 }));
      expect(s.refresh).toEqual(
        expect.objectContaining({ requested: expect.any(Number), executed: expect.any(Number), coalesced: expect.any(Number), debounced: expect.any(Number), waitAbandoned: expect.any(Number) }),
      );
      expect(s.latencyMs).toEqual({ p50: expect.any(Number), p95: expect.any(Number), p99: expect.any(Number), max: expect.any(Number) });
      expect(s.throughput?.series).toHaveLength(10);
      expect(s.invariants).toEqual(expect.objectContaining({ ok: true, checks: expect.any(Array) }));
    },
    SLOW,
  );

  it(
    'the same command twice prints byte-identical output',
    () => {
      const again = sim(['steady', '--json']);
      expect(again.status).toBe(0);
      expect(again.stdout).toBe(first.stdout);
    },
    SLOW,
  );

  it(
    '--seed 5 changes the run',
    () => {
      const other = sim(['steady', '--json', '--seed', '5']);
      expect(other.status).toBe(0);
      const a = JSON.parse(first.stdout) as { seed: number; ops: { total: number }; latencyMs: unknown; throughput: unknown };
      const b = JSON.parse(other.stdout) as typeof a;
      expect(b.seed).toBe(5);
      expect(JSON.stringify([b.ops, b.latencyMs, b.throughput])).not.toBe(JSON.stringify([a.ops, a.latencyMs, a.throughput]));
    },
    SLOW,
  );
});

describe('scenario files and --events', () => {
  it(
    '--events FILE writes NDJSON: every line parses and has t and a known type; the summary agrees with it',
    () => {
      const file = scenarioFile('short.json', SHORT);
      const events = join(tmp, 'events.ndjson');
      const r = sim([file, '--json', '--events', events]);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      const text = readFileSync(events, 'utf8');
      expect(text.endsWith('\n')).toBe(true);
      const lines = text.slice(0, -1).split('\n');
      expect(lines.length).toBeGreaterThan(1000);
      const types = new Set<string>();
      const bad: string[] = [];
      let ends = 0;
      let lastT = -Infinity;
      for (const line of lines) {
        let e: { t?: unknown; type?: unknown };
        try {
          e = JSON.parse(line) as typeof e;
        } catch {
          bad.push(`not JSON: ${line.slice(0, 80)}`);
          continue;
        }
        if (typeof e.t !== 'number' || !(EVENT_TYPES as readonly unknown[]).includes(e.type)) bad.push(`no t / unknown type: ${line.slice(0, 80)}`);
        else if (e.t < lastT) bad.push(`time went back: ${line.slice(0, 80)}`);
        else lastT = e.t;
        types.add(String(e.type));
        if (e.type === 'op.end') ends++;
      }
      expect(bad.slice(0, 5)).toEqual([]);
      for (const t of ['op.start', 'attempt.start', 'attempt.end', 'op.end', 'fault', 'topology', 'refresh.start', 'refresh.end']) expect(types).toContain(t);
      const summary = JSON.parse(r.stdout) as { scenario: string; ops: { total: number } };
      expect(summary.scenario).toBe('short');
      expect(summary.ops.total).toBe(ends);
    },
    SLOW,
  );

  it(
    'prints a human summary without --json; ZARIS_REQUEST_TIMEOUT=2s and ZARIS_DISABLE_RETRIES=true apply',
    () => {
      const r = sim([scenarioFile('short2.json', SHORT)], { ZARIS_REQUEST_TIMEOUT: '2s', ZARIS_DISABLE_RETRIES: 'true' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^Zaris Churn Lab — short \(seed 3, 1\.5 s virtual\)/);
      expect(r.stdout).toMatch(/deadline 2000 ms, retries disabled/);
      expect(r.stdout).toMatch(/max per op 1\b/);
      expect(r.stdout).toMatch(/invariants: OK/);
      expect(() => JSON.parse(r.stdout)).toThrow();
    },
    SLOW,
  );
});

describe('bad input exits 2 with a clear message', () => {
  it(
    'a scenario file with a bad field names the field',
    () => {
      const file = scenarioFile('bad.json', { ...SHORT, cluster: { nodez: 3 }, faults: [{ atMs: 1, action: 'explode', node: 0 }] });
      const r = sim([file, '--json']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`invalid ${file}`);
      expect(r.stderr).toMatch(/cluster: unknown field\(s\) "nodez"/);
      expect(r.stderr).toMatch(/faults\[0\]\.action: action must be one of failover, scaleOut, failback, hang, resume, slow, lostAck/);
    },
    SLOW,
  );

  it(
    'an unknown preset lists the presets',
    () => {
      const r = sim(['no-such-preset', '--json']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain('no-such-preset');
      for (const id of PRESET_IDS) expect(r.stderr).toContain(id);
    },
    SLOW,
  );

  it(
    'ZARIS_REQUEST_TIMEOUT=abc names the variable and the value',
    () => {
      const r = sim(['steady', '--json'], { ZARIS_REQUEST_TIMEOUT: 'abc' });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/ZARIS_REQUEST_TIMEOUT: .*"abc"/);
    },
    SLOW,
  );

  it(
    "a bad scenario file and a bad environment are reported together (fixing the file revealed the environment's only then)",
    () => {
      const r = sim([scenarioFile('bad-and-env.json', JSON.stringify({ name: 'x', seed: 1, durationMs: -5 }))], { ZARIS_REQUEST_TIMEOUT: 'abc', ZARIS_DISABLE_RETRIES: 'maybe' });
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^error: invalid .*bad-and-env\.json:\n {2}- durationMs: .*\nerror: invalid environment \(ZARIS_\* variables\):\n {2}- ZARIS_REQUEST_TIMEOUT: .*"abc"\n {2}- ZARIS_DISABLE_RETRIES: .*"maybe"\n$/);
    },
    SLOW,
  );

  it(
    'a bad flag is one line naming it and where the options are',
    () => {
      const r = sim(['steady', '--seed', 'x']);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe('error: --seed must be a whole number in 0..2147483647, got "x" (npm run sim -- --help lists the options)\n');
    },
    SLOW,
  );
  it(
    'no scenario at all gets the usage',
    () => {
      const r = sim([]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^error: no scenario given\nusage: npm run sim/);
    },
    SLOW,
  );
});

describe('--strict', () => {
  it(
    '--strict exits 0 on the failover preset (its invariants hold)',
    () => {
      const r = sim(['failover', '--strict', '--json']);
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
      expect((JSON.parse(r.stdout) as { invariants: { ok: boolean } }).invariants.ok).toBe(true);
    },
    SLOW,
  );
});

describe('settings that cannot act', () => {
  it(
    'get a note on stderr naming the field, its value and what would make it act; stdout stays the JSON summary',
    () => {
      const file = scenarioFile('notes.json', { ...SHORT, workload: { ratePerSec: 200, thinkMs: 250, zipfExponent: 2, keys: 100 } });
      const r = sim([file, '--json']);
      expect(r.status).toBe(0);
      expect(r.stderr).toContain('note: workload.thinkMs (250) has no effect: it is the pause of a closed-loop user between operations, and the workload has no closed-loop users (concurrency 0)\n');
      expect(r.stderr).toContain('note: workload.zipfExponent (2) has no effect: the key distribution is "uniform"; set distribution "zipf" to use it\n');
      expect(() => JSON.parse(r.stdout) as unknown).not.toThrow();
    },
    SLOW,
  );
});
