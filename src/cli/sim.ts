/**
 * `npm run sim -- <scenario.json | preset> [--seed N] [--json] [--events FILE] [--strict]
 *   [--engine sim|redis] [--client zaris|ioredis] [--wait-replicas N] [--rate N] [--base-port N]`
 *
 * Runs a scenario headless in deterministic virtual time (or, with
 * `--engine redis`, for real on a local Redis Cluster) and prints a
 * summary (a table, or JSON with --json). Exit codes: 0 completed, 2 bad
 * input, 3 an invariant failed unexpectedly (with --strict).
 */
import { accessSync, closeSync, constants, existsSync, fstatSync, lstatSync, openSync, readFileSync, readlinkSync, readSync, realpathSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../core/validation';
import { escapeControls } from '../core/jsonText';
import { findPreset, PRESET_IDS } from '../core/sim/presets';
import { ENV_SOURCE, environmentIssues, loadScenario, parseScenarioText, type Scenario } from '../core/sim/scenario';
import { runScenario, type RunSummary } from '../core/sim/runScenario';
import { scenarioNotes } from '../core/sim/scenarioNotes';
import { describeEstimate, ESTIMATE_FROM_SECONDS, estimateRun, PROGRESS_LINES_FROM_SECONDS, progressSlices, type RunEstimate } from '../core/sim/estimate';
import { NoProgressError } from '../core/time/virtualScheduler';
import { NdjsonSink } from '../core/telemetry/ndjson';
import { formatSummary } from './summaryTable';
import { REAL_ARG_NAMES, runOnRedis, type RealArgs } from './realRun';

interface Args {
  target: string;
  seed?: number;
  json: boolean;
  events?: string;
  strict: boolean;
  engine: 'sim' | 'redis';
  real: RealArgs;
}

const USAGE = `usage: npm run sim -- <scenario.json | preset> [--seed N] [--json] [--events FILE] [--strict]
       [--engine sim|redis] [--client zaris|ioredis] [--wait-replicas N] [--rate OPS_PER_S] [--base-port PORT] [--ioredis-options JSON]
presets: ${PRESET_IDS.join(', ')}
environment: ZARIS_REQUEST_TIMEOUT (60 | 250ms | 2s | 1m | infinite), ZARIS_DISABLE_RETRIES=true, ZARIS_CLIENT_MAP_REFRESH_WAIT_MS=15000`;

class UsageError extends Error {}
class NoTargetError extends UsageError {}

/** `--help`: the usage on stdout, exit 0 (asking for help is not bad input) */
class HelpRequest extends Error {}

/** the project's source tree (src/) */
const SOURCE_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** the project's root (package.json's folder) */
const PROJECT_DIR = resolve(SOURCE_DIR, '..');

/** the flags that take no value */
const SWITCHES: readonly string[] = ['--json', '--strict', '--help'];

/** the largest scenario file read, bytes */
const MAX_SCENARIO_BYTES = 64 * 2 ** 20;

/** bad-input lines printed before "… and N more" */
const MAX_ISSUE_LINES = 20;

function parseArgs(raw: readonly string[]): Args {
  // `--seed=7` is `--seed 7`; a switch takes no value (`--json=1` would otherwise read "1" as a second scenario)
  const argv = raw.flatMap((a) => {
    const m = /^(--[a-z-]+)=(.*)$/s.exec(a);
    if (m === null) return [a];
    const [, name, v] = m as unknown as [string, string, string];
    if (SWITCHES.includes(name)) throw new UsageError(`${name} takes no value (got "${a}")`);
    return [name, v];
  });
  const args: Args = { target: '', json: false, strict: false, engine: 'sim', real: {} };
  const whole = (name: string, v: string, min: number, max: number): number => {
    if (!/^\d+$/.test(v) || Number(v) < min || Number(v) > max) throw new UsageError(`${name} must be a whole number in ${min}..${max}, got "${v}"`);
    return Number(v);
  };
  // a value flag given twice is refused: the first value would be dropped silently (`--events a --events b` writes only b)
  const given = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    // a second "--" (`npm run sim -- steady -- --json`: npm's own is already gone) separates nothing here
    if (a === '--') continue;
    const value = (): string => {
      const v = argv[++i];
      if (v === undefined || v === '' || v.startsWith('--')) throw new UsageError(`${a} needs a value`);
      const before = given.get(a);
      if (before !== undefined) throw new UsageError(`${a} is given twice ("${before}", then "${v}"); give it once`);
      given.set(a, v);
      return v;
    };
    if (a === '--json') args.json = true;
    else if (a === '--strict') args.strict = true;
    else if (a === '--events') {
      const v = value();
      // "-" would silently become a file named "-" in the working directory
      if (v === '-') throw new UsageError('--events - is not supported: stdout carries the summary; name a file (./- for a file named "-")');
      args.events = v;
    }
    else if (a === '--engine') {
      const v = value();
      if (v !== 'sim' && v !== 'redis') throw new UsageError(`--engine must be one of sim, redis, got "${v}"`);
      args.engine = v;
    } else if (a === '--client') {
      const v = value();
      if (v !== 'zaris' && v !== 'ioredis') throw new UsageError(`--client must be one of zaris, ioredis, got "${v}"`);
      args.real.client = v;
    } else if (a === '--wait-replicas') args.real.waitReplicas = whole(a, value(), 0, 8);
    else if (a === '--rate') args.real.rate = whole(a, value(), 1, 1_000_000);
    else if (a === '--base-port') args.real.basePort = whole(a, value(), 1024, 55_000);
    else if (a === '--ioredis-options') args.real.ioredisOptions = value();
    else if (a === '--seed') {
      const v = value();
      if (!/^\d+$/.test(v) || Number(v) > 2 ** 31 - 1) throw new UsageError(`--seed must be a whole number in 0..2147483647, got "${v}"`);
      args.seed = Number(v);
    } else if (a === '--help' || a === '-h') throw new HelpRequest();
    else if (a.startsWith('--') || (a.startsWith('-') && a.length > 1)) throw new UsageError(`unknown option ${a}`);
    else if (args.target === '') args.target = a;
    else throw new UsageError(`unexpected argument "${a}" (one scenario at a time)`);
  }
  if (args.target === '') throw new NoTargetError('no scenario given');
  if (args.engine !== 'redis') {
    const used = REAL_ARG_NAMES.filter((n) => args.real[n.key] !== undefined).map((n) => n.flag);
    if (used.length > 0) throw new UsageError(`${used.join(', ')} need${used.length === 1 ? 's' : ''} --engine redis`);
  }
  return args;
}

function load(target: string, env: NodeJS.ProcessEnv, engine: 'sim' | 'redis'): Scenario {
  const preset = findPreset(target);
  // a file of the same name here would be shadowed by the preset without a word
  if (preset !== undefined && existsSync(target)) {
    throw new InputError(target, [{ path: '', message: `names both the preset ${target} and the file ./${target} here: give ./${target} for the file, or run the preset from another folder (or rename the file)` }]);
  }
  if (preset !== undefined) return loadScenario(preset.input, `preset ${target}`, env, engine);
  let bytes: Buffer;
  try {
    const st = statSync(target);
    // a device or a FIFO reports size 0 and then reads without end (/dev/zero): only a regular file is read
    if (st.isDirectory()) throw new InputError(target, [{ path: '', message: `is a directory: name a scenario file or a preset (presets: ${PRESET_IDS.join(', ')})` }]);
    if (!st.isFile()) throw new InputError(target, [{ path: '', message: 'is not a regular file (a device, FIFO or socket): name a scenario file or a preset' }]);
    const size = st.size;
    // a text this long cannot even become a string (V8: 512 MB); no valid scenario comes near the cap
    if (size > MAX_SCENARIO_BYTES) {
      throw new InputError(target, [{ path: '', message: `the file has ${(size / 2 ** 20).toFixed(1)} MB: a scenario file holds at most ${MAX_SCENARIO_BYTES / 2 ** 20} MB (10000 faults and 10000 changes need far less)` }]);
    }
    bytes = readFileSync(target);
  } catch (e) {
    if (e instanceof InputError) throw e;
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EACCES' || code === 'EPERM') throw new InputError(target, [{ path: '', message: `cannot be read: permission denied (${code})` }]);
    throw new InputError(target, [{ path: '', message: `no such preset or readable file (presets: ${PRESET_IDS.join(', ')})` }]);
  }
  return parseScenarioText(decodeUtf8(bytes, target), target, env, engine);
}

/** the file as UTF-8 text; other bytes are refused (a lenient decode would put U+FFFD into names silently) */
function decodeUtf8(bytes: Buffer, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch (e) {
    if (!(e instanceof TypeError)) throw e; // the decoder's "not UTF-8" is a TypeError
    const lossy = bytes.toString('utf8');
    const line = lossy.slice(0, lossy.indexOf('\uFFFD')).split('\n').length;
    const utf16 = (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
    throw new InputError(source, [{ path: '', message: `not UTF-8 text (${utf16 ? 'a UTF-16 byte-order mark' : `an invalid byte on line ${line}`}): save the file as UTF-8` }]);
  }
}

/** a write to the --events file failed (full disk, I/O error): reported as one line, exit 2 */
class EventsWriteError extends Error {
  constructor(override readonly cause: NodeJS.ErrnoException) {
    super(cause.message);
  }
}

/** the same file, whether or not `b` exists yet (compares device + inode when both exist) */
function sameFile(a: string, b: string): boolean {
  try {
    const sa = statSync(a);
    const sb = statSync(b);
    return sa.dev === sb.dev && sa.ino === sb.ino;
  } catch {
    return resolve(a) === resolve(b);
  }
}

/** `path` is the file stdout writes to (/dev/stdout, or the file stdout is redirected to); /dev/null takes both harmlessly */
function isStdout(path: string): boolean {
  try {
    const out = fstatSync(1);
    const p = statSync(path);
    if (p.dev !== out.dev || p.ino !== out.ino) return false;
    const nul = statSync('/dev/null');
    return !(p.dev === nul.dev && p.ino === nul.ino);
  } catch {
    return false;
  }
}

/**
 * Progress on stderr: a bar on a terminal; otherwise (a log, a pipe) one
 * line at most every 5 s of wall time, from the start for a run estimated
 * long, else once the run has taken 10 s.
 */
function progressReporter(est: RunEstimate): ((f: number) => void) | undefined {
  const started = Date.now();
  if (process.stderr.isTTY) {
    return (f) => {
      const width = 30;
      const done = Math.round(f * width);
      process.stderr.write(`\r[${'#'.repeat(done)}${'.'.repeat(width - done)}] ${Math.round(f * 100)}%${f >= 1 ? '\n' : ''}`);
    };
  }
  // a run estimated long reports at once; any other run once it has taken PROGRESS_LINES_FROM_SECONDS
  // (the estimate counts operations: a run whose time goes to the control plane — thousands of
  // segments moving at each of many scale-outs — would otherwise sit silent); the last step closes
  // the lines a run printed
  const eager = est.wallSeconds >= PROGRESS_LINES_FROM_SECONDS;
  let last = -Infinity;
  return (f) => {
    const now = Date.now();
    if (!eager && now - started < PROGRESS_LINES_FROM_SECONDS * 1000 && last === -Infinity) return;
    if (now - last < 5000 && !(f >= 1 && last > -Infinity)) return;
    last = now;
    const elapsed = (now - started) / 1000;
    const eta = f > 0 ? (elapsed / f) * (1 - f) : Infinity;
    process.stderr.write(`progress: ${(f * 100).toFixed(1)} % (virtual ${((f * est.durationMs) / 1000).toFixed(1)} s) after ${elapsed.toFixed(0)} s, about ${formatSeconds(eta)} left\n`);
  };
}

function formatSeconds(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 120) return `${Math.round(s)} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${(s / 3600).toFixed(1)} h`;
}

async function main(): Promise<number> {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    if (e instanceof HelpRequest) {
      process.stdout.write(`${USAGE}\n`);
      return 0;
    }
    if (e instanceof UsageError) {
      // a bad flag is one line; a run with no scenario at all gets the usage, which is what it lacks
      if (e instanceof NoTargetError) process.stderr.write(`error: ${e.message}\n${USAGE}\n`);
      else process.stderr.write(`error: ${escapeControls(e.message)} (npm run sim -- --help lists the options)\n`);
      return 2;
    }
    throw e;
  }
  let scenario: Scenario;
  try {
    scenario = load(args.target, process.env, args.engine);
  } catch (e) {
    if (e instanceof InputError) {
      // one line per bad field, but a generated file with thousands of bad entries does not flood the terminal
      const report = (source: string, issues: readonly { readonly path: string; readonly message: string }[]) => {
        const shown = issues.slice(0, MAX_ISSUE_LINES).map((i) => `  - ${escapeControls(i.path || '(file)')}: ${escapeControls(i.message)}`);
        const more = issues.length - shown.length;
        process.stderr.write(`error: invalid ${escapeControls(source)}:\n${shown.join('\n')}\n${more > 0 ? `  … and ${more} more problems (fix these first)\n` : ''}`);
      };
      report(e.source, e.issues);
      // the environment's mistakes too, when the file's stopped the run before they were read
      const env = e.source === ENV_SOURCE ? [] : environmentIssues(process.env).filter((i) => !e.issues.some((x) => x.path === i.path));
      if (env.length > 0) report(ENV_SOURCE, env);
      return 2;
    }
    throw e;
  }
  const events = args.events;
  // the path as errors show it (a path may hold control characters)
  const shownEvents = escapeControls(events ?? '');
  if (events !== undefined && findPreset(args.target) === undefined && sameFile(events, args.target)) {
    process.stderr.write(`error: --events ${shownEvents} is the scenario file itself; name another file for the events\n`);
    return 2;
  }
  if (events !== undefined && isStdout(events)) {
    process.stderr.write(`error: --events ${shownEvents} is stdout, which carries the ${args.json ? 'JSON summary with --json' : 'summary table'}; name another file for the events\n`);
    return 2;
  }
  if (events !== undefined && /[/\\]$/.test(events)) {
    process.stderr.write(`error: --events ${shownEvents} ends with a slash, so it names a directory; name a file\n`);
    return 2;
  }
  const refused = events === undefined ? null : eventsPathProblem(events);
  if (refused !== null) {
    process.stderr.write(`error: --events ${shownEvents} ${refused}\n`);
    return 2;
  }
  // valid settings that cannot act in this scenario: said, not refused (stderr: stdout stays the summary)
  for (const note of scenarioNotes(scenario)) process.stderr.write(`note: ${note}\n`);
  const est = estimateRun(scenario);
  // a real engine runs in real time: its duration is the scenario's
  if (args.engine !== 'redis' && est.wallSeconds >= ESTIMATE_FROM_SECONDS) {
    process.stderr.write(`estimate: ${describeEstimate(est)}\n`);
  }
  let fd: number | null = null;
  let sink: NdjsonSink | null = null;
  // a file is written beside its final name and renamed into place when the run is done, so an
  // interrupted run (Ctrl-C kills a synchronous run at once) never leaves a truncated file under the
  // name given; a device or FIFO (/dev/null) is written directly
  const target = events !== undefined ? replaceableTarget(events) : null;
  const writePath = events === undefined ? undefined : target !== null ? partialName(target) : events;
  const finishEvents = (): boolean => {
    if (fd !== null) closeSync(fd);
    fd = null;
    if (target === null || writePath === undefined) return true;
    try {
      renameSync(writePath, target);
      return true;
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      rmSync(writePath, { force: true });
      process.stderr.write(`error: cannot write --events file ${shownEvents}: ${describeWriteError(err)}${err.code !== undefined ? ` (${err.code})` : ''}\n`);
      return false;
    }
  };
  if (events !== undefined && writePath !== undefined) {
    try {
      // a file that exists must be writable: the rename would replace a read-only one
      if (target !== null && existsSync(target)) accessSync(target, constants.W_OK);
      fd = openSync(writePath, 'w');
    } catch (e) {
      const err = e as NodeJS.ErrnoException;
      process.stderr.write(`error: cannot write --events file ${shownEvents}: ${describeWriteError(err)}${err.code !== undefined ? ` (${err.code})` : ''}\n`);
      return 2;
    }
    const out = fd;
    sink = new NdjsonSink((chunk) => {
      try {
        writeSync(out, chunk);
      } catch (e) {
        throw new EventsWriteError(e as NodeJS.ErrnoException);
      }
    });
  }
  if (args.engine === 'redis') {
    const out = await runOnRedis(scenario, args.real, sink);
    if (out.summary === null) {
      // refused or failed before it ran: the file named keeps what it held (only the partial one goes)
      if (fd !== null) closeSync(fd);
      fd = null;
      if (target !== null && writePath !== undefined) rmSync(writePath, { force: true });
      return 2;
    }
    if (sink !== null && fd !== null) sink.flush();
    if (!finishEvents()) return 2;
    process.stdout.write(args.json ? `${JSON.stringify(out.summary, null, 2)}\n` : formatSummary(out.summary));
    if (args.strict && !out.summary.invariants.ok) {
      process.stderr.write('error: invariant violated (--strict)\n');
      return 3;
    }
    return 0;
  }
  const onProgress = progressReporter(est);
  let summary: RunSummary;
  try {
    summary = runScenario(scenario, {
      ...(args.seed !== undefined ? { seed: args.seed } : {}),
      ...(sink ? { sinks: [sink] } : {}),
      ...(onProgress ? { onProgress, progressSlices: progressSlices(est) } : {}),
    }).summary;
    if (sink !== null) sink.flush();
  } catch (e) {
    if (fd !== null) closeSync(fd);
    if (target !== null && writePath !== undefined && !(e instanceof EventsWriteError)) rmSync(writePath, { force: true });
    if (e instanceof EventsWriteError && events !== undefined && writePath !== undefined) {
      // remove what we wrote only if it is a plain file (never a device such as /dev/full)
      let removed = isRegularFile(writePath);
      try {
        if (removed) rmSync(writePath, { force: true });
      } catch {
        removed = false; // e.g. /proc/version: a "file" that can be neither written nor removed
      }
      const code = e.cause.code !== undefined ? ` (${e.cause.code})` : '';
      process.stderr.write(`error: cannot write --events file ${shownEvents}: ${describeWriteError(e.cause)}${code}${removed ? '; the incomplete file was removed' : ''}\n`);
      return 2;
    }
    if (e instanceof NoProgressError) {
      process.stderr.write(`error: ${e.message}; the run was stopped\n`);
      return 2;
    }
    throw e;
  }
  if (!finishEvents()) return 2;
  process.stdout.write(args.json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(summary));
  if (args.strict && !summary.invariants.ok) {
    process.stderr.write('error: invariant violated (--strict)\n');
    return 3;
  }
  return 0;
}

/** `path` resolves to `dir` or a path below it */
function isInside(dir: string, path: string): boolean {
  const rel = relative(realOrResolved(dir), resolve(path));
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** the path with its symbolic links resolved, or as given when it does not exist */
function realOrResolved(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return resolve(path);
  }
}

/**
 * Where an --events file is renamed to when the run is done: the path itself (or, through a
 * symbolic link, the file it names — created, as a shell's `>` does, when the link dangles) when
 * it is a regular file or does not exist yet; null for a device, FIFO or anything else, which is
 * written directly.
 */
function replaceableTarget(path: string): string | null {
  try {
    const real = realpathSync(path);
    return statSync(real).isFile() ? real : null;
  } catch {
    const link = danglingLinkTarget(path);
    if (link !== null) return link;
    return existsSync(path) ? null : resolve(path);
  }
}

/** the file a symbolic link names when that file does not exist; null when `path` is no dangling link */
function danglingLinkTarget(path: string): string | null {
  try {
    if (!lstatSync(path).isSymbolicLink()) return null;
    return resolve(dirname(resolve(path)), readlinkSync(path));
  } catch {
    return null;
  }
}

/** the project's own folders --events never writes into: its sources (the presets live there), its packages and its history */
const PROTECTED_DIRS: readonly (readonly [string, string])[] = [
  [SOURCE_DIR, "the project's source tree"],
  [join(PROJECT_DIR, 'node_modules'), "the project's installed packages"],
  [join(PROJECT_DIR, '.git'), "the project's git repository"],
];

/**
 * Why --events may not write `path`, or null: a folder of the project's own (through symbolic
 * links too: the run renames its file onto the one the link names), a file of the project's
 * that holds no events (package.json, README.md, …: only an empty file or an earlier events
 * file is replaced there), a dangling link whose folder is missing, a FIFO no one reads.
 */
function eventsPathProblem(path: string): string | null {
  const target = replaceableTarget(path);
  const where = target ?? path;
  const dir = PROTECTED_DIRS.find(([d]) => isInside(d, path) || isInside(d, where));
  if (dir !== undefined) return `is inside ${dir[1]} (${dir[0]})${dir[0] === SOURCE_DIR ? ', where the presets live' : ''}; name a file elsewhere`;
  if (target !== null && isInside(PROJECT_DIR, target) && existsSync(target) && !holdsEvents(target)) {
    return `would replace ${relative(PROJECT_DIR, target)}, a file of the project that holds no events; name a new file (or an earlier events file)`;
  }
  const dangling = danglingLinkTarget(path);
  if (dangling !== null && !existsSync(dirname(dangling))) return `is a symbolic link to ${escapeControls(dangling)}, whose folder does not exist; name a file whose folder exists`;
  if (target === null && isFifo(path)) {
    // opening a FIFO for writing waits for a reader: without one, the run would hang before it starts
    try {
      closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENXIO') return 'is a FIFO (named pipe) that no process reads; start its reader first, or name a file';
    }
  }
  return null;
}

function isFifo(path: string): boolean {
  try {
    return statSync(path).isFIFO();
  } catch {
    return false;
  }
}

/** the file is empty or starts as an events file does (a JSON object with the event time first) */
function holdsEvents(path: string): boolean {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const head = Buffer.alloc(5);
    const n = readSync(fd, head, 0, head.length, 0);
    return n === 0 || (n === head.length && head.toString('utf8') === '{"t":');
  } catch {
    return false;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

/** the file a run writes its events to until it is done, beside the final name (visible: a run killed by Ctrl-C leaves it, named as incomplete) */
function partialName(target: string): string {
  return join(dirname(target), `${basename(target)}.partial-${process.pid}`);
}

function isRegularFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

function describeWriteError(e: NodeJS.ErrnoException): string {
  if (e.code === 'ENOSPC') return 'no space left on the device';
  if (e.code === 'EDQUOT') return 'disk quota exceeded';
  if (e.code === 'EIO') return 'I/O error';
  if (e.code === 'EFBIG') return 'file too large';
  // "EISDIR: illegal operation on a directory, open '/tmp'" → "illegal operation on a directory" (the line names the file and the code)
  return e.message.replace(/^[A-Z]+: /, '').replace(/, (write|open '.*')$/, '');
}

// stdout closed early (`| head`): stop quietly, as Unix tools do; any other write error (`> out.json` on a full disk) is one line, exit 2
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  const code = e.code !== undefined ? ` (${e.code})` : '';
  process.stderr.write(`error: cannot write the summary to stdout: ${describeWriteError(e)}${code}\n`);
  process.exit(2);
});
main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exitCode = 1;
  },
);
