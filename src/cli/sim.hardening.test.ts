/**
 * The CLI under hostile conditions, run as real processes: stdout is exactly
 * JSON with the command README shows, write errors are one line and exit 2,
 * a run that cannot advance is refused, a huge run gets an estimate and
 * progress on a non-terminal stderr.
 */
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { closeSync, existsSync, lstatSync, mkdtempSync, openSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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
    '--events into a missing directory or onto a directory: one line naming the file, the error and its code',
    () => {
      const f = file('open-err.json', TINY);
      const missing = sim([f, '--events', join(tmp, 'no', 'such', 'dir', 'run.ndjson')]);
      expect(missing.status).toBe(2);
      expect(missing.stderr.trim()).toBe(`error: cannot write --events file ${join(tmp, 'no', 'such', 'dir', 'run.ndjson')}: no such file or directory (ENOENT)`);
      const dir = sim([f, '--events', tmp]);
      expect(dir.status).toBe(2);
      expect(dir.stderr.trim()).toBe(`error: cannot write --events file ${tmp}: illegal operation on a directory (EISDIR)`);
    },
    SLOW,
  );

  it.runIf(existsSync('/dev/full'))(
    'stdout onto a full device (`> out.json` on a full disk): one line naming ENOSPC, exit 2, no stack trace',
    () => {
      const out = openSync('/dev/full', 'w');
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', file('full-out.json', TINY), '--json'], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: SLOW, stdio: ['ignore', out, 'pipe'] });
      closeSync(out);
      expect(r.status).toBe(2);
      expect(r.stderr.trim().split('\n')).toEqual(['error: cannot write the summary to stdout: no space left on the device (ENOSPC)']);
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

describe('an interrupted run', () => {
  it(
    'Ctrl-C leaves the --events file it was given as it was, its partial output named as such; a finished run leaves no partial file',
    async () => {
      const done = join(tmp, 'done.ndjson');
      expect(sim([file('short.json', TINY), '--events', done]).status).toBe(0);
      expect(readFileSync(done, 'utf8')).toMatch(/^\{"t":0,"type":"topology"/);
      const { readdirSync } = await import('node:fs');
      expect(readdirSync(tmp).filter((n) => n.includes('.partial-'))).toEqual([]);
      const events = join(tmp, 'kept.ndjson');
      writeFileSync(events, 'the previous run\n');
      const f = file('long.json', { name: 'long', seed: 1, durationMs: 3_600_000, workload: { concurrency: 64, thinkMs: 1 } });
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', f, '--events', events], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
      const exited = new Promise<NodeJS.Signals | number | null>((resolve) => child.on('exit', (code, signal) => resolve(signal ?? code)));
      const partial = `${events}.partial-${child.pid}`;
      const until = Date.now() + 40_000;
      while (!(existsSync(partial) && readFileSync(partial).length > 0) && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGINT');
      expect(await exited).toBe('SIGINT');
      expect(readFileSync(events, 'utf8')).toBe('the previous run\n');
      expect(readFileSync(partial, 'utf8')).toMatch(/^\{"t":0,"type":"topology"/);
    },
    SLOW,
  );
});

describe('flags given twice and --events onto stdout', () => {
  it(
    'a value flag given twice is refused naming both values (the first was dropped silently)',
    () => {
      const f = file('twice.json', TINY);
      const seed = sim([f, '--seed', '1', '--seed', '2']);
      expect(seed.status).toBe(2);
      expect(seed.stderr).toMatch(/^error: --seed is given twice \("1", then "2"\); give it once \(npm run sim -- --help lists the options\)$/m);
      const a = join(tmp, 'a.ndjson');
      const events = sim([f, '--events', a, '--events', join(tmp, 'b.ndjson')]);
      expect(events.status).toBe(2);
      expect(events.stderr).toMatch(/^error: --events is given twice/m);
      expect(existsSync(a)).toBe(false);
      // a flag without a value stays a flag: --json twice is harmless
      expect(sim([f, '--json', '--json']).status).toBe(0);
    },
    SLOW,
  );

  it(
    '`--events -` and an empty --events are refused (no file named "-" appears)',
    () => {
      const f = file('dash.json', TINY);
      const dash = sim([f, '--json', '--events', '-']);
      expect(dash.status).toBe(2);
      expect(dash.stderr).toMatch(/^error: --events - is not supported: stdout carries the summary/m);
      expect(existsSync(join(ROOT, '-'))).toBe(false);
      const empty = sim([f, '--events', '']);
      expect(empty.status).toBe(2);
      expect(empty.stderr).toMatch(/^error: --events needs a value \(npm run sim -- --help lists the options\)$/m);
    },
    SLOW,
  );

  it(
    '--json with --events naming stdout (/dev/stdout, or the file stdout goes to) is refused: stdout stays JSON',
    () => {
      const f = file('stdout.json', TINY);
      const r = sim([f, '--json', '--events', '/dev/stdout']);
      expect(r.status).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr.trim().split('\n')).toEqual(['error: --events /dev/stdout is stdout, which carries the JSON summary with --json; name another file for the events']);
    },
    SLOW,
  );
});

describe('what the CLI reads and writes', () => {
  it(
    'a device, a FIFO or a directory as the scenario is refused in one line (/dev/zero used to read without end: 11.7 GB, no output)',
    () => {
      const fifo = join(tmp, 'fifo.json');
      expect(run('mkfifo', [fifo]).status).toBe(0);
      for (const [target, why] of [
        ['/dev/zero', 'is not a regular file (a device, FIFO or socket): name a scenario file or a preset'],
        [fifo, 'is not a regular file (a device, FIFO or socket): name a scenario file or a preset'],
        [tmp, 'is a directory: name a scenario file or a preset (presets: '],
      ] as const) {
        const r = sim([target]);
        expect(r.status, target).toBe(2);
        expect(r.stderr.split('\n')[1], target).toContain(`  - (file): ${why}`);
      }
    },
    SLOW,
  );

  it(
    '--events into the project\'s source tree is refused (a preset\'s own file was overwritten, and every later run crashed)',
    () => {
      const preset = join(ROOT, 'src/core/sim/presets/failover.json');
      const before = readFileSync(preset, 'utf8');
      const r = sim(['failover', '--events', 'src/core/sim/presets/failover.json']);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^error: --events src\/core\/sim\/presets\/failover\.json is inside the project's source tree \(.*src\), where the presets live; name a file elsewhere$/m);
      expect(readFileSync(preset, 'utf8')).toBe(before);
    },
    SLOW,
  );

  it(
    '--events naming the file stdout goes to is refused without --json too (the table overwrote the start of the events)',
    () => {
      const f = file('same-table.json', TINY);
      const out = join(tmp, 'same.out');
      writeFileSync(out, '');
      const fd = openSync(out, 'w');
      const r = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', f, '--events', out], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: SLOW, stdio: ['ignore', fd, 'pipe'] });
      closeSync(fd);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --events ${out} is stdout, which carries the summary table; name another file for the events`);
      expect(readFileSync(out, 'utf8')).toBe('');
    },
    SLOW,
  );

  it(
    '--seed=7 is --seed 7; a switch with a value and a single-dash flag are named as such (-j was "one scenario at a time")',
    () => {
      const f = file('eq.json', TINY);
      const eq = sim([f, '--seed=7', '--json']);
      expect(eq.status).toBe(0);
      expect(JSON.parse(eq.stdout).seed).toBe(7);
      const sw = sim([f, '--json=1']);
      expect(sw.status).toBe(2);
      expect(sw.stderr).toMatch(/^error: --json takes no value \(got "--json=1"\) \(npm run sim -- --help lists the options\)$/m);
      const dash = sim([f, '-j']);
      expect(dash.status).toBe(2);
      expect(dash.stderr).toMatch(/^error: unknown option -j \(npm run sim -- --help lists the options\)$/m);
    },
    SLOW,
  );

  it(
    '--help prints the usage on stdout and exits 0',
    () => {
      const r = sim(['--help']);
      expect(r.status).toBe(0);
      expect(r.stdout).toMatch(/^usage: npm run sim -- <scenario\.json \| preset>/);
      expect(r.stderr).toBe('');
    },
    SLOW,
  );
});

describe('the file is UTF-8 and of a sane size', () => {
  it(
    'a 600 MB file is refused by its size (it used to end in "Cannot create a string longer than 0x1fffffe8 characters", exit 1)',
    () => {
      const f = file('huge0.json', '');
      truncateSync(f, 600 * 2 ** 20); // sparse: no disk space used
      const r = sim([f]);
      rmSync(f);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^ {2}- \(file\): the file has 600\.0 MB: a scenario file holds at most 64 MB/m);
    },
    SLOW,
  );

  it(
    'a Latin-1 or UTF-16 file is refused (a lenient decode put U+FFFD into the name)',
    () => {
      const latin1 = join(tmp, 'latin1.json');
      writeFileSync(latin1, Buffer.from(JSON.stringify({ ...TINY, name: 'Zürich' }), 'latin1'));
      const r = sim([latin1]);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(/^ {2}- \(file\): not UTF-8 text \(an invalid byte on line 1\): save the file as UTF-8$/m);
      const utf16 = join(tmp, 'utf16.json');
      writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(JSON.stringify(TINY), 'utf16le')]));
      expect(sim([utf16]).stderr).toMatch(/not UTF-8 text \(a UTF-16 byte-order mark\)/);
      expect(sim([file('zurich.json', { ...TINY, name: 'Zürich 🚀' })]).status).toBe(0);
    },
    SLOW,
  );
});

describe('thousands of bad entries', () => {
  it(
    '5000 bad faults: the first 20 lines, then a count, exit 2',
    () => {
      const r = sim([file('manybad.json', { ...TINY, faults: Array.from({ length: 5000 }, () => ({ atMs: -1, action: 'nope' })) })]);
      expect(r.status).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines).toHaveLength(22);
      expect(lines[1]).toBe('  - faults[0].atMs: atMs must be ≥ 0; got number -1');
      expect(lines[21]).toBe('  … and 9980 more problems (fix these first)');
    },
    SLOW,
  );
});

describe('--events and the files around it (review of 2026-12-03)', () => {
  it(
    "a project file that holds no events, the installed packages and the git folder are refused and left as they were; a new file or an earlier events file in the project is written",
    () => {
      for (const target of ['package.json', 'README.md', 'node_modules/zod/package.json', '.git/HEAD'].filter((t) => existsSync(join(ROOT, t)))) {
        const before = readFileSync(join(ROOT, target));
        const r = sim([file('p.json', TINY), '--events', target]);
        expect(r.status, target).toBe(2);
        expect(r.stderr.trim().split('\n'), target).toHaveLength(1);
        expect(r.stderr, target).toMatch(/^error: --events \S+ (would replace \S+, a file of the project that holds no events|is inside the project's (installed packages|git repository))/);
        expect(readFileSync(join(ROOT, target)).equals(before), target).toBe(true);
      }
      const own = join(ROOT, `.events-test-${process.pid}.ndjson`);
      try {
        expect(sim([file('p.json', TINY), '--events', own]).status).toBe(0);
        expect(sim([file('p.json', TINY), '--events', own]).status).toBe(0); // an earlier run's events are replaced
        expect(readFileSync(own, 'utf8')).toMatch(/^\{"t":0,/);
      } finally {
        rmSync(own, { force: true });
      }
    },
    SLOW,
  );

  it(
    'a preset name that is also a file in the current folder is refused as ambiguous (the preset shadowed the file without a word); ./name reads the file',
    () => {
      const dir = mkdtempSync(join(tmp, 'shadow-'));
      writeFileSync(join(dir, 'steady'), JSON.stringify(TINY));
      const cli = (target: string) =>
        spawnSync(process.execPath, ['--import', pathToFileURL(join(ROOT, 'node_modules/tsx/dist/loader.mjs')).href, join(ROOT, 'src/cli/sim.ts'), target, '--json'], { cwd: dir, env: cleanEnv(), encoding: 'utf8', timeout: SLOW });
      const r = cli('steady');
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe('error: invalid steady:\n  - (file): names both the preset steady and the file ./steady here: give ./steady for the file, or run the preset from another folder (or rename the file)');
      const file = cli('./steady');
      expect(file.status).toBe(0);
      expect((JSON.parse(file.stdout) as { scenario: string }).scenario).toBe('tiny');
    },
    SLOW,
  );

  it(
    'a FIFO no process reads is refused at once (opening it waited for a reader for ever)',
    () => {
      const fifo = join(tmp, 'events.fifo');
      expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
      const r = sim([file('p.json', TINY), '--events', fifo]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --events ${fifo} is a FIFO (named pipe) that no process reads; start its reader first, or name a file`);
    },
    SLOW,
  );

  it(
    "a dangling symbolic link: its file is created, as a shell's > does (the link was replaced by a file); refused when the link's folder is missing",
    () => {
      const made = join(tmp, 'made.ndjson');
      const link = join(tmp, 'to-made.ndjson');
      symlinkSync(made, link);
      expect(sim([file('p.json', TINY), '--events', link]).status).toBe(0);
      expect(readFileSync(made, 'utf8')).toMatch(/^\{"t":0,/);
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      const nowhere = join(tmp, 'to-nowhere.ndjson');
      symlinkSync(join(tmp, 'missing', 'x.ndjson'), nowhere);
      const r = sim([file('p.json', TINY), '--events', nowhere]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --events ${nowhere} is a symbolic link to ${join(tmp, 'missing', 'x.ndjson')}, whose folder does not exist; name a file whose folder exists`);
      expect(lstatSync(nowhere).isSymbolicLink()).toBe(true);
    },
    SLOW,
  );
});

describe('paths and text from the user (review of 2026-12-02)', () => {
  it(
    'a symbolic link into the source tree is refused like the path itself (it used to overwrite a preset)',
    () => {
      const link = join(tmp, 'to-preset.ndjson');
      const preset = join(ROOT, 'src', 'core', 'sim', 'presets', 'steady.json');
      const before = readFileSync(preset, 'utf8');
      symlinkSync(preset, link);
      const r = sim(['steady', '--events', link]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --events ${link} is inside the project's source tree (${join(ROOT, 'src')}), where the presets live; name a file elsewhere`);
      expect(readFileSync(preset, 'utf8')).toBe(before);
    },
    SLOW,
  );

  it(
    'an --events path ending in a slash names a directory and is refused (it wrote a file of that name)',
    () => {
      const r = sim([file('slash.json', TINY), '--events', `${join(tmp, 'new.ndjson')}/`]);
      expect(r.status).toBe(2);
      expect(r.stderr.trim()).toBe(`error: --events ${join(tmp, 'new.ndjson')}/ ends with a slash, so it names a directory; name a file`);
      expect(existsSync(join(tmp, 'new.ndjson'))).toBe(false);
    },
    SLOW,
  );

  it(
    'control characters in a flag, a path or an environment value are shown escaped, on one line',
    () => {
      const seed = sim(['steady', '--seed', '1\u001b[2J\n2']);
      expect(seed.status).toBe(2);
      expect(seed.stderr).toBe('error: --seed must be a whole number in 0..2147483647, got "1\\u001b[2J\\n2" (npm run sim -- --help lists the options)\n');
      const path = sim([join(tmp, 'no\u001b]0;x\u0007such.json')]);
      expect(path.status).toBe(2);
      expect(path.stderr.includes('\u0007') || path.stderr.includes('\u001b')).toBe(false);
      expect(path.stderr).toContain('no\\u001b]0;x\\u0007such.json');
      const env = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/sim.ts', 'steady'], {
        cwd: ROOT,
        env: { ...cleanEnv(), ZARIS_REQUEST_TIMEOUT: '2s\u001b[31m' },
        encoding: 'utf8',
        timeout: SLOW,
      });
      expect(env.status).toBe(2);
      expect(env.stderr.includes('\u001b')).toBe(false);
      expect(env.stderr.split('\n')[0]).toBe('error: invalid environment (ZARIS_* variables):');
    },
    SLOW,
  );

  it(
    'a stray "--" between the scenario and the flags is skipped (it was "unknown option --")',
    () => {
      const r = sim([file('dd.json', TINY), '--', '--json']);
      expect(r.status).toBe(0);
      expect(JSON.parse(r.stdout).scenario).toBe('tiny');
    },
    SLOW,
  );

  it(
    'a real-engine run refused before it starts leaves an existing --events file as it was',
    () => {
      const keep = join(tmp, 'keep.ndjson');
      writeFileSync(keep, 'precious\n');
      const r = sim([file('slow.json', { ...TINY, faults: [{ atMs: 100, action: 'slow', node: 0 }] }), '--engine', 'redis', '--events', keep]);
      expect(r.status).toBe(2);
      expect(r.stderr).toContain('slow cannot be done on a real Redis Cluster');
      expect(readFileSync(keep, 'utf8')).toBe('precious\n');
    },
    SLOW,
  );
});
