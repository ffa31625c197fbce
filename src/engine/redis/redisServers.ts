/**
 * The redis-server processes of one run: free loopback ports, a temp data
 * dir, each server in its own process group, and three layers of cleanup so
 * that no server outlives the run: `stopAll()` (normal end), process
 * exit/signal/uncaught-exception hooks (synchronous kills), and a detached
 * watchdog (`supervisor.mjs`) that kills the servers if the runner itself is
 * killed.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisConnection, RequestDeadlines } from './connection';

/** Redis Cluster's bus listens on port + 10000: both must be free and ≤ 65535 */
export const BUS_OFFSET = 10_000;
const MAX_PORT = 55_000;

/** `p`, or nothing after `ms` — the timer is cleared either way (a pending one would keep the process alive) */
export async function within<T>(p: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: Parameters<typeof clearTimeout>[0];
  try {
    return await Promise.race([p, new Promise<undefined>((r) => (timer = setTimeout(r, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** Bad engine input or environment, reported in one line (exit code 2 in the CLI). */
export class EngineInputError extends Error {}

export function redisServerPath(): string | null {
  const r = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const p = r.stdout.trim();
  return r.status === 0 && p !== '' ? p : null;
}

/** whether `port` can be bound on 127.0.0.1 right now */
export function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host: '127.0.0.1', exclusive: true }, () => s.close(() => resolve(true)));
  });
}

function ephemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen({ port: 0, host: '127.0.0.1' }, () => {
      const a = s.address();
      const port = typeof a === 'object' && a !== null ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A free data port whose bus port is free too. Ports come from the OS
 * (bind port 0); ones above 55,000 (bus would pass 65,535 or sit in the
 * ephemeral range) are folded down into 20,000–45,000 and checked again.
 */
export async function freePortPair(taken: ReadonlySet<number>): Promise<number> {
  for (let i = 0; i < 200; i++) {
    let p = await ephemeralPort();
    if (p > MAX_PORT || p < 1024) p = 20_000 + (p % 25_000);
    if (taken.has(p) || taken.has(p + BUS_OFFSET) || taken.has(p - BUS_OFFSET)) continue;
    if ((await portFree(p)) && (await portFree(p + BUS_OFFSET))) return p;
  }
  throw new EngineInputError('no free loopback port pair (port and port+10000) found');
}

export interface ServerOptions {
  /** cluster-node-timeout, ms */
  readonly nodeTimeoutMs: number;
}

export interface RedisServer {
  readonly port: number;
  readonly dir: string;
  child: ChildProcess | null;
  pid: number;
  /** SIGSTOP'ed (hang) */
  stopped: boolean;
}

const SUPERVISOR = fileURLToPath(new URL('./supervisor.mjs', import.meta.url));
const live = new Set<RedisServers>();
let hooksInstalled = false;

/** kills every server of every live run, synchronously (exit hooks) */
function killEverything(): void {
  for (const r of live) r.killAllSync();
}

function installHooks(): void {
  if (hooksInstalled) return;
  hooksInstalled = true;
  process.on('exit', killEverything);
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(sig, () => {
      killEverything();
      process.stderr.write(`\n${sig}: stopped every redis-server of this run\n`);
      process.exit(130);
    });
  }
  process.on('uncaughtException', (e) => {
    killEverything();
    process.stderr.write(`error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}

export class RedisServers {
  readonly dir: string;
  readonly servers = new Map<number, RedisServer>();
  private readonly bin: string;
  private supervisor: ChildProcess | null = null;

  constructor(private readonly options: ServerOptions) {
    const bin = redisServerPath();
    if (bin === null) throw new EngineInputError('redis-server is not installed (run: node scripts/ensure-redis.mjs, or apt-get install -y redis-server)');
    this.bin = bin;
    this.dir = mkdtempSync(join(tmpdir(), 'zaris-redis-'));
    installHooks();
    live.add(this);
    const sup = spawn(process.execPath, [SUPERVISOR, String(process.pid), this.dir], { detached: true, stdio: 'ignore' });
    sup.unref();
    this.supervisor = sup;
  }

  /** starts (or restarts, same dir and nodes.conf) a server on `port`; resolves when it answers PING */
  async start(port: number): Promise<RedisServer> {
    const dir = join(this.dir, String(port));
    mkdirSync(dir, { recursive: true });
    const args = [
      '--port', String(port),
      '--bind', '127.0.0.1',
      '--protected-mode', 'no',
      '--daemonize', 'no',
      '--dir', dir,
      '--logfile', 'redis.log',
      '--pidfile', join(dir, 'redis.pid'),
      '--save', '',
      '--appendonly', 'no',
      '--cluster-enabled', 'yes',
      '--cluster-config-file', 'nodes.conf',
      '--cluster-node-timeout', String(this.options.nodeTimeoutMs),
      // a replica whose master was down longer than usual may still take over (tests kill masters at will)
      '--cluster-replica-validity-factor', '0',
      // the scenario decides topology: no replica wanders to another master
      '--cluster-allow-replica-migration', 'no',
      '--repl-diskless-sync', 'yes',
      '--repl-diskless-sync-delay', '0',
    ];
    // Its own process group (detached), so one signal to -pid reaches it and nothing else.
    const child = spawn(this.bin, args, { detached: true, stdio: 'ignore' });
    const pid = child.pid;
    if (pid === undefined) throw new EngineInputError(`could not start redis-server on port ${port}`);
    appendFileSync(join(this.dir, 'pids'), `${pid}\n`);
    const server: RedisServer = { port, dir, child, pid, stopped: false };
    this.servers.set(port, server);
    let exited: number | null = null;
    child.once('exit', (code) => {
      exited = code ?? -1;
      if (server.child === child) server.child = null;
    });
    await this.waitReady(port, () => exited !== null, join(dir, 'redis.log'));
    return server;
  }

  private async waitReady(port: number, exited: () => boolean, log: string): Promise<void> {
    const deadlines = new RequestDeadlines();
    for (let i = 0; i < 100; i++) {
      if (exited()) {
        const tail = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n').slice(-2).join(' | ') : '';
        throw new EngineInputError(/in use/i.test(tail) ? `port ${port} is in use` : `redis-server on port ${port} exited: ${tail}`);
      }
      const conn = new RedisConnection('127.0.0.1', port, deadlines);
      try {
        const pong = await conn.call(['PING'], 500);
        if (pong === 'PONG') return;
      } catch {
        /* not up yet */
      } finally {
        conn.close();
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new EngineInputError(`redis-server on port ${port} did not answer PING within 5 s`);
  }

  /** kill -9 (failover): the process dies at once, as in a crash */
  kill(port: number): void {
    const s = this.servers.get(port);
    if (s === undefined) return;
    signal(s.pid, 'SIGKILL');
    s.stopped = false;
  }

  /** SIGSTOP (hang) / SIGCONT (resume) */
  pause(port: number, paused: boolean): void {
    const s = this.servers.get(port);
    if (s === undefined) return;
    signal(s.pid, paused ? 'SIGSTOP' : 'SIGCONT');
    s.stopped = paused;
  }

  /** whether the server's process is alive */
  running(port: number): boolean {
    const s = this.servers.get(port);
    return s !== undefined && s.child !== null;
  }

  /** pids of the servers still running */
  pids(): number[] {
    return [...this.servers.values()].filter((s) => s.child !== null).map((s) => s.pid);
  }

  /** stops every server (SIGKILL: data is throwaway), waits for their exit, removes the dir and the watchdog */
  async stopAll(): Promise<void> {
    const waits: Promise<unknown>[] = [];
    for (const s of this.servers.values()) {
      const child = s.child;
      if (child === null) continue;
      waits.push(new Promise((r) => child.once('exit', r)));
      signal(s.pid, 'SIGKILL');
    }
    await within(Promise.all(waits), 3_000);
    this.cleanupSync();
  }

  /** @internal the exit-hook path: kill, remove, no waiting */
  killAllSync(): void {
    for (const s of this.servers.values()) if (s.child !== null) signal(s.pid, 'SIGKILL');
    this.cleanupSync();
  }

  private cleanupSync(): void {
    live.delete(this);
    rmSync(this.dir, { recursive: true, force: true });
    if (this.supervisor?.pid !== undefined) {
      try {
        process.kill(this.supervisor.pid, 'SIGKILL');
      } catch {
        /* it saw the dir vanish and left */
      }
    }
    this.supervisor = null;
  }
}

/** signals the server's process group (and the pid itself, should the group be gone) */
function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    try {
      process.kill(pid, sig);
    } catch {
      /* already gone */
    }
  }
}
