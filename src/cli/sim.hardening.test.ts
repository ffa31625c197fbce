/**
 * The CLI under hostile conditions, run as real processes: stdout is exactly
 * JSON with the command README shows, write errors are one line and exit 2,
 * a run that cannot advance is refused, a huge run gets an estimate and
 * progress on a non-terminal stderr.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SLOW = 60_000;
const tmp = mkdtempSync(join(tmpdir(), 'zaris-cli-hard-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

function cleanEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('ZARIS_') && !k.startsWith('npm_')) env[k] = v;
  return env;
}

function run(cmd: string, args: readonly string[]): SpawnSyncReturns<string> {
  const r = spawnSync(cmd, args, { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: SLOW, maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return r;
}
const sim = (args: readonly string[]) => run(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', ...args]);

function file(name: string, content: unknown): string {
  const f = join(tmp, name);
  writeFileSync(f, typeof content === 'string' ? content : JSON.stringify(content));
  return f;
}

const TINY = { name: 'tiny', seed: 1, durationMs: 300, workload: { concurrency: 4, thinkMs: 1 } };

describe('stdout is exactly JSON', () => {
  it(
    '`npm run -s sim -- <preset> --json` (the command README shows) prints nothing but the JSON summary',
    () => {
      const r = run('npm', ['run', '-s', 'sim', '--', file('t.json', TINY), '--json']);
      expect(r.status).toBe(0);
      const parsed = JSON.parse(r.stdout) as { scenario: string };
      expect(parsed.scenario).toBe('tiny');
      expect(r.stdout.startsWith('{')).toBe(true);
    },
    SLOW,
  );
});

describe('write errors and the scenario file', () => {
  it.runIf(existsSync('/dev/full'))(
    '--events onto a full device: one line naming the file and ENOSPC, exit 2, no stack trace, the device left alone',
    () => {
      const r = sim([file('t2.json', TINY), '--events', '/dev/full']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).toMatch(/^error: cannot write --events file \/dev\/full: no space left on the device \(ENOSPC\)$/m);
      expect(r.stderr).not.toMatch(/\bat \S+:\d+/);
      expect(existsSync('/dev/full')).toBe(true);
    },
    SLOW,
  );

  it(
    '--events naming the scenario file itself is refused and the file is untouched',
    () => {
      const f = file('self.json', TINY);
      const before = readFileSync(f, 'utf8');
      const r = sim([f, '--events', join(tmp, '.', 'self.json')]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/is the scenario file itself/);
      expect(readFileSync(f, 'utf8')).toBe(before);
    },
    SLOW,
  );
});

describe('every run progresses or is refused', () => {
  it(
    'all latencies and service times 0 with closed-loop users: refused at once, naming the fields',
    () => {
      const zero = { latencyMs: 0, jitterMs: 0, getServiceMs: 0, writeServiceMs: 0, replicationMs: 0, mapServiceMs: 0, mapServicePerSegmentMs: 0 };
      const r = sim([file('zero.json', { ...TINY, workload: { concurrency: 4 }, cluster: zero })]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/cluster: every operation would take 0 ms of virtual time/);
      expect(r.stderr).toMatch(/cluster\.latencyMs.*workload\.thinkMs/);
    },
    SLOW,
  );

  it(
    'a huge run (1 h at 10 M ops/s): an estimate up front and progress lines on a non-terminal stderr',
    async () => {
      const f = file('huge.json', { name: 'huge', seed: 1, durationMs: 3_600_000, workload: { ratePerSec: 10_000_000, maxInFlight: 4096 } });
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', f, '--json'], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
      let stderr = '';
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no progress line in time; stderr: ${stderr}`)), 40_000);
        child.stderr.setEncoding('utf8');
        child.stderr.on('data', (d: string) => {
          stderr += d;
          if (/progress: .*left\n/.test(stderr)) {
            clearTimeout(timer);
            resolve();
          }
        });
      }).finally(() => child.kill('SIGKILL'));
      expect(stderr).toMatch(/^estimate: about 360\.0 million operations \(of 36\.0 billion open-loop arrivals/m);
      expect(stderr).toMatch(/≈[\d.]+ (h|min|days) of wall time/);
      expect(stderr).toMatch(/^progress: [\d.]+ % \(virtual [\d.]+ s\) after \d+ s, about .* left$/m);
    },
    SLOW,
  );
});
