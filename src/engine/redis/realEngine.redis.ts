/**
 * The real engine end to end, through the CLI: real redis-server processes,
 * real kill -9 / SIGSTOP / slot migration, the summary and the checker's
 * verdict, and no server left behind (pgrep on the run's data dir).
 * `npm run test:redis`; short scenarios, cluster-node-timeout 800 ms.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RunSummary } from '../../core/sim/runScenario';
import { portFree } from './redisServers';

const dir = mkdtempSync(join(tmpdir(), 'zaris-redis-test-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Run {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** the run's server ports, from the "cluster up" line (null: no cluster was started) */
  readonly ports: number[] | null;
}

function scenarioFile(name: string, body: object): string {
  const p = join(dir, `${name}.json`);
  writeFileSync(p, JSON.stringify({ name, seed: 1, ...body }));
  return p;
}

function sim(args: readonly string[]): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('exit', (code) => resolve({ code, stdout, stderr, ports: portsOf(stderr) }));
  });
}

function portsOf(stderr: string): number[] | null {
  const m = /cluster up: .* on ports ([\d, ]+) \(/.exec(stderr);
  return m ? (m[1] as string).split(', ').map(Number) : null;
}

/** live (not zombie) redis-servers listening on one of `ports` (redis names its process "redis-server host:port [cluster]") */
function serversOf(ports: readonly number[] | null): string[] {
  expect(ports).not.toBeNull();
  const ps = spawnSync('ps', ['-eo', 'pid=,stat=,args='], { encoding: 'utf8' }).stdout.split('\n');
  return ps.filter((l) => {
    const [, stat, ...args] = l.trim().split(/\s+/);
    const cmd = args.join(' ');
    return stat !== undefined && !stat.startsWith('Z') && (ports ?? []).some((p) => cmd.startsWith(`/usr/bin/redis-server 127.0.0.1:${p} `) || cmd.startsWith(`redis-server 127.0.0.1:${p} `));
  });
}

const json = (r: Run): RunSummary => JSON.parse(r.stdout) as RunSummary;
const cluster = { nodes: 3, replicas: 1, failureTimeoutMs: 800 };
const workload = { ratePerSec: 600, maxInFlight: 256, keys: 400, mix: { get: 0.5, put: 0.3, cas: 0.1, createOnce: 0.1 } };

describe('real engine: failover by kill -9', () => {
  const file = scenarioFile('failover', { durationMs: 7000, cluster, workload, faults: [{ atMs: 2000, action: 'failover', node: 1 }] });

  it('the Zaris client sees connection errors / CLUSTERDOWN, refreshes at most twice a second, the verdict is printed, every server is stopped', async () => {
    const human = await sim([file, '--engine', 'redis']);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/real time on Redis 7\.\d+\.\d+, Zaris client/);
    expect(human.stdout).toMatch(/invariants: (OK|VIOLATED)/);
    expect(human.stdout).toMatch(/\[(ok {2}|FAIL)\] noLostAckedWrites/);
    expect(human.stdout).toMatch(/failover node 1 at 2\.0 s: repaired after \d+ ms/);
    expect(serversOf(human.ports)).toEqual([]);

    const r = await sim([file, '--engine', 'redis', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = json(r);
    const transient = (s.statuses.NodeUnavailable ?? 0) + (s.statuses.Socket ?? 0) + (s.statuses.Unavailable ?? 0) + (s.statuses.Moved ?? 0);
    expect(transient).toBeGreaterThan(0);
    expect(s.refresh.executed).toBeGreaterThan(1);
    expect(s.refresh.peakExecutedPerSecond).toBeLessThanOrEqual(2);
    expect(s.engine?.faultWindows[0]?.repairedAfterMs).not.toBeNull();
    expect(s.engine?.cleanup).toBe('stopped all 6 redis-server processes');
    expect(s.cluster.nodes.find((n) => n.id === 1)?.status).toBe('down');
    expect(s.cluster.nodes.find((n) => n.id === 4)?.status).toBe('master'); // node 1's replica took over
    expect(serversOf(r.ports)).toEqual([]);
  });

  it('ioredis on the same schedule: its refreshes (CLUSTER SLOTS served) and the errors the application saw', async () => {
    const r = await sim([file, '--engine', 'redis', '--client', 'ioredis', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = json(r);
    expect(s.engine?.client).toBe('ioredis');
    expect(s.refresh.executed).toBeGreaterThan(0);
    expect(s.engine?.serverCalls['cluster|slots']).toBeGreaterThan(0);
    expect(s.ops.total).toBeGreaterThan(1000);
    expect(serversOf(r.ports)).toEqual([]);
  });

  it('--wait-replicas 1: writes are acknowledged only once the replica has them, and none is lost', async () => {
    const r = await sim([file, '--engine', 'redis', '--wait-replicas', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = json(r);
    expect(s.engine?.waitReplicas).toBe(1);
    expect(s.engine?.lostAckedWrites.count).toBe(0);
    expect(s.invariants.checks.find((c) => c.name === 'noLostAckedWrites')?.ok).toBe(true);
  });
});

describe('real engine: lost acknowledged writes are reported, not hidden', () => {
  it('a master without replicas is killed: its acknowledged writes are gone, named by op id; --strict exits 3', async () => {
    const file = scenarioFile('lone-master', { durationMs: 5000, cluster: { ...cluster, replicas: 0 }, workload, faults: [{ atMs: 2000, action: 'failover', node: 1 }] });
    const r = await sim([file, '--engine', 'redis', '--json', '--strict']);
    expect(r.code, r.stderr).toBe(3);
    const s = json(r);
    const lost = s.invariants.checks.find((c) => c.name === 'noLostAckedWrites');
    expect(lost?.ok).toBe(false);
    expect(s.engine?.lostAckedWrites.count).toBeGreaterThan(0);
    expect(s.engine?.lostAckedWrites.ops.length).toBeGreaterThan(0);
    expect(lost?.detail).toMatch(/key\(s\) lost an acknowledged version/);
    expect(serversOf(r.ports)).toEqual([]);
  });
});

describe('real engine: scale-out and failback', () => {
  it('a scale-out migrates slots with MIGRATE: ASK is followed inside attempts, MOVED afterwards', async () => {
    const file = scenarioFile('scale-out', {
      durationMs: 9000,
      cluster: { nodes: 3, replicas: 0, failureTimeoutMs: 800, migrationBaseMs: 300 },
      workload: { ...workload, ratePerSec: 1000, keys: 2000 },
      faults: [{ atMs: 1500, action: 'scaleOut' }],
    });
    const r = await sim([file, '--engine', 'redis', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = json(r);
    expect(s.engine?.asks).toBeGreaterThan(0);
    expect(s.statuses.Moved ?? 0).toBeGreaterThan(0);
    expect(s.engine?.faultWindows[0]).toMatchObject({ action: 'scaleOut', node: 3 });
    expect(s.cluster.nodes.find((n) => n.id === 3)?.status).toBe('master');
    expect(serversOf(r.ports)).toEqual([]);
  });

  it('a failback restarts the killed node, waits for its sync and gives it its slots back (CLUSTER FAILOVER)', async () => {
    const file = scenarioFile('failback', {
      durationMs: 11000,
      cluster,
      workload,
      faults: [
        { atMs: 1500, action: 'failover', node: 1 },
        { atMs: 5000, action: 'failback', node: 1 },
      ],
    });
    const r = await sim([file, '--engine', 'redis', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const s = json(r);
    const back = s.engine?.faultWindows.find((w) => w.action === 'failback');
    expect(back?.repairedAfterMs, JSON.stringify(s.engine?.clientNotes)).not.toBeNull();
    expect(s.cluster.nodes.find((n) => n.id === 1)?.status).toBe('master');
    expect(s.cluster.nodes.find((n) => n.id === 4)?.status).toBe('replica');
    expect(serversOf(r.ports)).toEqual([]);
  });
});

describe('real engine: bad input and cleanup', () => {
  it('refuses a fault Redis cannot do in one line, naming it and the allowed ones, before starting anything', async () => {
    const file = scenarioFile('slow', { durationMs: 3000, cluster, workload, faults: [{ atMs: 1000, action: 'slow', node: 0, factor: 5, durationMs: 500 }] });
    const r = await sim([file, '--engine', 'redis']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe('error: faults: slow cannot be done on a real Redis Cluster (allowed with --engine redis: failover, hang, resume, failback, scaleOut)');
    expect(r.ports).toBeNull();
  });

  it('refuses --client and --wait-replicas without --engine redis, and bad values', async () => {
    const a = await sim(['failover', '--client', 'ioredis']);
    expect(a.code).toBe(2);
    expect(a.stderr).toMatch(/^error: --client needs --engine redis/);
    const b = await sim(['failover', '--engine', 'redis', '--client', 'jedis']);
    expect(b.stderr).toMatch(/^error: --client must be one of zaris, ioredis, got "jedis"/);
    const c = await sim(['failover', '--engine', 'redis', '--wait-replicas', '2']);
    expect(c.code).toBe(2);
    expect(c.stderr.trim()).toBe('error: --wait-replicas 2 is more than cluster.replicas 1 (allowed: 0..1)');
  });

  it('a port in use: one line naming it, exit 2, no server left', async () => {
    // a base port whose own and bus ports are free, then the next port taken by someone else
    let base = 0;
    for (let p = 20_000 + Math.floor(Math.random() * 20_000); base === 0; p += 7) {
      if ((await portFree(p)) && (await portFree(p + 10_000)) && (await portFree(p + 1))) base = p;
    }
    const blocker: Server = createServer();
    await new Promise<void>((r) => blocker.listen(base + 1, '127.0.0.1', r));
    try {
      const file = scenarioFile('ports', { durationMs: 2000, cluster, workload });
      const r = await sim([file, '--engine', 'redis', '--base-port', String(base)]);
      expect(r.code).toBe(2);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('error:'))).toEqual([`error: port ${base + 1} is in use (--base-port ${base}: ports from there on and their +10000 bus ports must be free)`]);
      expect(serversOf([base, base + 1])).toEqual([]);
    } finally {
      blocker.close();
    }
  });

  it.each([
    ['SIGINT (Ctrl-C)', 'SIGINT'],
    ['SIGKILL of the runner (the watchdog cleans up)', 'SIGKILL'],
  ] as const)('%s: no redis-server survives', async (_label, sig) => {
    const file = scenarioFile(`kill-${sig}`, { durationMs: 60_000, cluster, workload: { ...workload, ratePerSec: 200 } });
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', file, '--engine', 'redis'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const running = new Promise<void>((resolve) => child.stderr.on('data', (d) => ((stderr += d), /running 60 s/.test(stderr) && resolve())));
    const exited = new Promise((r) => child.on('exit', r));
    try {
      await running;
      const ports = portsOf(stderr);
      expect(serversOf(ports)).toHaveLength(6);
      child.kill(sig);
      await exited;
      const deadline = Date.now() + 5_000;
      while (serversOf(ports).length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(serversOf(ports)).toEqual([]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGINT'); // never leave the runner (and its servers) behind
    }
  });
});
