import { z } from 'zod';
import { BUG_TOGGLES, clientConfigInputSchema, bugTogglesSchema, envControlledSettings, isZarisEnvName, mergeClientConfig, resolveClientConfig, type BugToggles, type ClientConfig } from '../client/config';
import { clusterConfigSchema, DEFAULT_CLUSTER_CONFIG, type ClusterConfig } from '../cluster/clusterConfig';
import { faultSpecSchema, type FaultSpec } from '../cluster/faults';
import { describeJsonSyntaxError, findDuplicateKey } from '../jsonText';
import { InputError, issuesOf, type InputIssue } from '../validation';
import { faultScheduleIssues } from './faultTimeline';
import { zeroTimeProblem } from './progress';
import { isIdleWorkload, mergeWorkload, resolveWorkload, workloadSchema, type WorkloadConfig } from './workloadConfig';

/**
 * One entry of the configuration schedule (scenario field `changes`): at
 * `atMs` the client and/or the workload take these settings over the ones
 * in effect, and/or the workload pauses or resumes. A live session records
 * its control changes this way, so its replay does what the session did.
 */
export const configChangeSchema = z
  .strictObject({
    atMs: z.number({ error: 'atMs must be a number of ms' }).min(0, 'atMs must be ≥ 0'),
    client: clientConfigInputSchema.optional(),
    workload: workloadSchema.optional(),
    paused: z.boolean({ error: 'paused must be true or false' }).optional(),
  })
  .refine((c) => c.client !== undefined || c.workload !== undefined || c.paused !== undefined, {
    message: 'a change needs at least one of client, workload, paused',
  });
export type ConfigChange = z.output<typeof configChangeSchema>;

/**
 * Which engine a scenario is checked for: the simulation's nodes are its
 * members (`cluster.nodes`); a real Redis Cluster also runs
 * `cluster.nodes × cluster.replicas` replica processes (ids after the
 * masters), which faults may target.
 */
export type ScenarioEngine = 'sim' | 'redis';

const initialNodes = (engine: ScenarioEngine, nodes: number, replicas: number): number => (engine === 'redis' ? nodes * (1 + replicas) : nodes);

/** A scenario file (SPEC §10), validated; unknown fields are errors. */
export const scenarioSchema = makeScenarioSchema('sim');

function makeScenarioSchema(engine: ScenarioEngine) {
  return z
  .strictObject({
    name: z
      .string({ error: 'name must be a string' })
      .min(1, 'name must not be empty')
      .max(200, 'name must be ≤ 200 characters')
      // it heads the CLI's table on a terminal: a line break splits it, an escape sequence would drive the terminal
      // eslint-disable-next-line no-control-regex
      .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, 'name must be one line without control characters (line breaks, tabs, escape sequences)')
      // invisible characters that reorder or split what is shown (a right-to-left override makes "evil.json" read "nosj.live")
      .regex(/^[^\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]*$/, 'name must not contain invisible direction or line-separator characters (U+200B, U+200E/F, U+2028/9, U+202A–E, U+2066–9, U+FEFF): they change how the name reads')
      // a lone surrogate (a JSON "\ud800" escape) is no character: it would print as U+FFFD
      .refine((n) => !/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(n), 'name must be valid Unicode text: it contains an unpaired surrogate (a \\ud800–\\udfff escape without its pair)'),
    description: z.string().max(2000, 'description must be ≤ 2000 characters').optional(),
    seed: z.number({ error: 'seed must be a whole number' }).int('seed must be a whole number').min(0, 'seed must be ≥ 0').max(2 ** 31 - 1, 'seed must be ≤ 2147483647'),
    durationMs: z.number({ error: 'durationMs must be a number of ms' }).min(1, 'durationMs must be ≥ 1').max(3_600_000, 'durationMs must be ≤ 3600000 (one hour)'),
    cluster: clusterConfigSchema.optional(),
    client: clientConfigInputSchema.optional(),
    bugs: bugTogglesSchema.optional(),
    workload: workloadSchema.optional(),
    faults: z.array(faultSpecSchema, { error: 'faults must be a list of { atMs, action, node? }' }).max(10_000, 'at most 10000 faults').optional(),
    changes: z.array(configChangeSchema, { error: 'changes must be a list of { atMs, client?, workload?, paused? }' }).max(10_000, 'at most 10000 changes').optional(),
  })
  .superRefine((s, ctx) => {
    // the fault schedule in time order: nodes exist, no fault is one the control plane would ignore, the cluster stays within its cap
    const issues = faultScheduleIssues(s.faults ?? [], {
      members: initialNodes(engine, s.cluster?.nodes ?? DEFAULT_CLUSTER_CONFIG.nodes, s.cluster?.replicas ?? DEFAULT_CLUSTER_CONFIG.replicas),
      durationMs: s.durationMs,
      failureTimeoutMs: s.cluster?.failureTimeoutMs ?? DEFAULT_CLUSTER_CONFIG.failureTimeoutMs,
    });
    for (const issue of issues) ctx.addIssue({ code: 'custom', path: [...issue.path], message: issue.message });
    const nodes = s.cluster?.nodes ?? DEFAULT_CLUSTER_CONFIG.nodes;
    const replicas = s.cluster?.replicas ?? DEFAULT_CLUSTER_CONFIG.replicas;
    if (replicas >= nodes) {
      ctx.addIssue({
        code: 'custom',
        path: ['cluster', 'replicas'],
        message: `replicas must be less than nodes (got replicas ${replicas}, nodes ${nodes}): owner and replicas sit on distinct nodes`,
      });
    }
    const w = s.workload;
    if (w !== undefined && (w.concurrency ?? 1) === 0 && (w.ratePerSec ?? 0) === 0) {
      ctx.addIssue({ code: 'custom', path: ['workload'], message: 'workload needs concurrency ≥ 1 or ratePerSec > 0' });
    }
    let workload = resolveWorkload(w ?? {});
    const cluster = { ...DEFAULT_CLUSTER_CONFIG, ...Object.fromEntries(Object.entries(s.cluster ?? {}).filter(([, v]) => v !== undefined)) };
    const stuck = zeroTimeProblem(cluster, workload);
    if (stuck !== null) ctx.addIssue({ code: 'custom', path: ['cluster'], message: stuck });
    // a bug toggle in both places with two values: one would win silently
    for (const [name, value] of Object.entries(s.bugs ?? {})) {
      const inClient = (s.client?.bugs as Readonly<Record<string, boolean | undefined>> | undefined)?.[name];
      if (value !== undefined && inClient !== undefined && inClient !== value) {
        ctx.addIssue({ code: 'custom', path: ['bugs', name], message: `bugs.${name} is ${value} but client.bugs.${name} is ${inClient}: give each toggle once (in bugs or in client.bugs)` });
      }
    }
    const changes = (s.changes ?? []).map((c, i) => ({ c, i })).sort((a, b) => a.c.atMs - b.c.atMs || a.i - b.i);
    // the same setting twice at one instant: the later entry would win silently
    const setAt = new Map<string, number>();
    for (const { c, i } of changes) {
      const fields = [
        ...Object.keys(c.client ?? {}).flatMap((k) => (k === 'bugs' ? Object.keys(c.client?.bugs ?? {}).map((b) => `client.bugs.${b}`) : [`client.${k}`])),
        ...Object.keys(c.workload ?? {}).map((k) => `workload.${k}`),
        ...(c.paused !== undefined ? ['paused'] : []),
      ];
      for (const f of fields) {
        const first = setAt.get(`${c.atMs} ${f}`);
        if (first !== undefined) ctx.addIssue({ code: 'custom', path: ['changes', i, ...f.split('.')], message: `${f} is set twice at ${c.atMs} ms (changes[${first}] sets it too): give each setting once per instant` });
        else setAt.set(`${c.atMs} ${f}`, i);
      }
    }
    for (const { c, i } of changes) {
      // at durationMs itself the workload stops: a change there would do nothing (as a fault there)
      if (c.atMs >= s.durationMs) {
        ctx.addIssue({ code: 'custom', path: ['changes', i, 'atMs'], message: `atMs ${c.atMs} is not before the end of the run (durationMs ${s.durationMs}): a change must come before it` });
      }
      if (c.workload === undefined) continue;
      workload = mergeWorkload(workload, c.workload);
      if (isIdleWorkload(workload)) {
        ctx.addIssue({ code: 'custom', path: ['changes', i, 'workload'], message: 'the workload would need concurrency ≥ 1 or ratePerSec > 0 (use "paused": true to stop it)' });
      }
      const stuckLater = stuck === null ? zeroTimeProblem(cluster, workload) : null;
      if (stuckLater !== null) ctx.addIssue({ code: 'custom', path: ['changes', i, 'workload'], message: stuckLater });
    }
    // the rules across fields run on fields that are valid each: a bad one is named once, not blamed again in a rule that reads it
  }, { when: (payload) => payload.issues.length === 0 });
}
const redisScenarioSchema = makeScenarioSchema('redis');

export type ScenarioInput = z.input<typeof scenarioSchema>;

/** A scenario with every default applied. */
export interface Scenario {
  readonly name: string;
  readonly description: string;
  readonly seed: number;
  readonly durationMs: number;
  readonly cluster: ClusterConfig;
  readonly client: ClientConfig;
  readonly workload: WorkloadConfig;
  readonly faults: readonly FaultSpec[];
  /** the configuration schedule, by time */
  readonly changes: readonly ConfigChange[];
}

/** what reports the environment's own mistakes */
export const ENV_SOURCE = 'environment (ZARIS_* variables)';

/**
 * The environment's own mistakes (ZARIS_* variables), checked without a scenario: the CLI lists
 * them beside a scenario file's, so fixing the file does not reveal a second round of errors.
 */
export function environmentIssues(env: Readonly<Record<string, string | undefined>>): InputIssue[] {
  try {
    resolveClientConfig({}, env, undefined, ENV_SOURCE);
    return [];
  } catch (e) {
    if (e instanceof InputError) return e.issues.filter((i) => isZarisEnvName(i.path));
    throw e;
  }
}

/**
 * Validates a scenario (parsed JSON) and applies defaults. Client settings
 * are resolved through the one config resolver, so the SPEC §7 environment
 * names override the file. Throws an {@link InputError} naming every bad field.
 */
export function loadScenario(input: unknown, source = 'scenario', env: Readonly<Record<string, string | undefined>> = {}, engine: ScenarioEngine = 'sim'): Scenario {
  const schema = engine === 'redis' ? redisScenarioSchema : scenarioSchema;
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw new InputError(source, issuesOf(parsed.error, '', schema, input));
  const s = parsed.data;
  let client: ClientConfig;
  try {
    client = resolveClientConfig({ ...s.client, bugs: { ...s.client?.bugs, ...s.bugs } }, env, undefined, source);
  } catch (e) {
    if (e instanceof InputError) {
      // the environment's own mistakes are its own, not the scenario's
      const fromEnv = e.issues.every((i) => isZarisEnvName(i.path));
      throw new InputError(fromEnv ? ENV_SOURCE : source, e.issues.map((i): InputIssue => (isZarisEnvName(i.path) ? i : { ...i, path: `client.${i.path}` })));
    }
    throw e;
  }
  const clusterIn = Object.fromEntries(Object.entries(s.cluster ?? {}).filter(([, v]) => v !== undefined));
  return {
    name: s.name,
    description: s.description ?? '',
    seed: s.seed,
    durationMs: s.durationMs,
    cluster: { ...DEFAULT_CLUSTER_CONFIG, ...clusterIn },
    client,
    workload: resolveWorkload(s.workload ?? {}),
    faults: [...(s.faults ?? [])].sort((a, b) => a.atMs - b.atMs),
    changes: withoutEnvSettings([...(s.changes ?? [])].sort((a, b) => a.atMs - b.atMs), envControlledSettings(env)),
  };
}

/**
 * The environment overrides the file's client settings for the whole run: a scheduled change
 * of a setting the environment sets is left out (else `ZARIS_DISABLE_RETRIES=true` stopped
 * applying at the first change that set `disableRetries`).
 */
function withoutEnvSettings(changes: ConfigChange[], fromEnv: readonly string[]): ConfigChange[] {
  if (fromEnv.length === 0) return changes;
  return changes.map((c) => (c.client === undefined ? c : { ...c, client: Object.fromEntries(Object.entries(c.client).filter(([k]) => !fromEnv.includes(k))) }));
}

/**
 * The run's settings at time `t` by its schedule, as the engine applies them: the client
 * configuration and the workload in effect, whether the workload runs (it runs from 0 unless a
 * change pauses it) and whether it ran at all before (a recorded session that began paused has
 * not started until its first `paused: false`).
 */
export function scheduleAt(
  s: Pick<Scenario, 'changes' | 'client' | 'workload'>,
  t: number,
): { readonly running: boolean; readonly everStarted: boolean; readonly client: ClientConfig; readonly workload: WorkloadConfig } {
  let running = true;
  let everStarted = false;
  let since = 0;
  let client = s.client;
  let workload = s.workload;
  for (const c of s.changes) {
    if (c.atMs > t) break;
    if (c.client !== undefined) client = mergeClientConfig(client, c.client);
    if (c.workload !== undefined) workload = mergeWorkload(workload, c.workload);
    if (c.paused === undefined) continue;
    if (running && c.atMs > since) everStarted = true;
    running = !c.paused;
    since = c.atMs;
  }
  return { running, everStarted: everStarted || running, client, workload };
}

/** the client configurations a run goes through: the scenario's, then one per scheduled client change */
export function clientConfigsOf(s: Scenario): ClientConfig[] {
  const all = [s.client];
  for (const c of s.changes) if (c.client !== undefined) all.push(mergeClientConfig(all[all.length - 1] as ClientConfig, c.client));
  return all;
}

/**
 * every bug toggle that is on at some time of the run (the scenario's own
 * and its schedule's): a violation one of them causes counts as explained
 */
export function bugsOnAtAnyTime(s: Scenario): BugToggles {
  const configs = clientConfigsOf(s);
  return Object.fromEntries(BUG_TOGGLES.map((b) => [b, configs.some((c) => c.bugs[b])])) as unknown as BugToggles;
}

/**
 * parses JSON text and loads it; a syntax error names the position. A UTF-8
 * byte-order mark (some editors write one) is skipped; a key given twice in
 * one object is refused (JSON.parse would silently keep the last).
 */
export function parseScenarioText(text: string, source = 'scenario', env: Readonly<Record<string, string | undefined>> = {}, engine: ScenarioEngine = 'sim'): Scenario {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  if (body.trim() === '') throw new InputError(source, [{ path: '', message: 'the file is empty (or only white space): a scenario is a JSON object such as { "name": "my-run", "seed": 1, "durationMs": 16000 }' }]);
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (e) {
    throw new InputError(source, [{ path: '', message: `not valid JSON: ${describeJsonSyntaxError(body, (e as Error).message)}` }]);
  }
  if (isRunSummary(json)) {
    throw new InputError(source, [
      {
        path: '',
        message:
          'this is a run summary (the output of npm run sim -- … --json), not a scenario: a scenario has name, durationMs, cluster, client, workload and faults (save one with "Save as scenario" or Replay\'s Scenario export); to replay a run, open its events (npm run sim -- <scenario> --events <file>, or Replay\'s NDJSON export)',
      },
    ]);
  }
  const dup = findDuplicateKey(body);
  if (dup !== null) throw new InputError(source, [{ path: dup.path, message: `the key "${dup.key}" appears twice in one object (line ${dup.line}); give each setting once` }]);
  return loadScenario(json, source, env, engine);
}

/** `json` has the run summary's own sections (RunSummary: ops, attempts, throughput, invariants) */
function isRunSummary(json: unknown): boolean {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return false;
  return ['ops', 'attempts', 'throughput', 'invariants'].every((k) => k in json);
}

/** back to the file format (for "save as scenario" and the URL) */
export function toScenarioInput(s: Scenario): ScenarioInput {
  return {
    name: s.name,
    ...(s.description ? { description: s.description } : {}),
    seed: s.seed,
    durationMs: s.durationMs,
    cluster: { ...s.cluster },
    client: {
      maxAttempts: s.client.maxAttempts,
      backoffMillis: s.client.backoffMillis,
      operationTimeoutMs: s.client.operationTimeoutMs === null ? 'infinite' : s.client.operationTimeoutMs,
      disableRetries: s.client.disableRetries,
      refreshWaitBudgetMs: s.client.refreshWaitBudgetMs,
      refreshDebounceMs: s.client.refreshDebounceMs,
      attemptTimeoutMs: s.client.attemptTimeoutMs,
      bugs: { ...s.client.bugs },
    },
    workload: { ...s.workload, mix: { ...s.workload.mix } },
    faults: s.faults.map((f) => ({ ...f })),
    ...(s.changes.length > 0 ? { changes: s.changes.map((c) => JSON.parse(JSON.stringify(c)) as ConfigChange) } : {}),
  };
}
