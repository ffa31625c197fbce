/**
 * Scenario validation (SPEC §10): bad input is rejected with an InputError
 * that names the field path and, where there is a closed set, the allowed
 * values; defaults and environment overrides (SPEC §7) apply.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../client/config';
import { DEFAULT_CLUSTER_CONFIG } from '../cluster/clusterConfig';
import { FAULT_ACTIONS } from '../telemetry/events';
import { InputError, type InputIssue } from '../validation';
import { loadScenario, parseScenarioText, toScenarioInput, scheduleAt, type Scenario } from './scenario';
import { DEFAULT_WORKLOAD } from './workloadConfig';
import { runScenario } from './runScenario';

const BASE = { name: 'test', seed: 1, durationMs: 10_000 } as const;

/** the InputError thrown by `fn` (fails the test if none) */
function inputError(fn: () => unknown): InputError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return e as InputError;
  }
  throw new Error('expected an InputError, but the input was accepted');
}

function issueAt(err: InputError, path: string): InputIssue {
  const issue = err.issues.find((i) => i.path === path);
  if (issue === undefined) throw new Error(`no issue at "${path}"; issues: ${JSON.stringify(err.issues)}`);
  return issue;
}

describe('a minimal scenario gets every default', () => {
  it('name, seed and durationMs are enough', () => {
    const s = loadScenario(BASE);
    expect(s).toEqual<Scenario>({
      name: 'test',
      description: '',
      seed: 1,
      durationMs: 10_000,
      cluster: DEFAULT_CLUSTER_CONFIG,
      client: DEFAULT_CLIENT_CONFIG,
      workload: DEFAULT_WORKLOAD,
      faults: [],
      changes: [],
    });
  });

  it('partial sections merge over the defaults; faults are sorted by time (stable)', () => {
    const s = loadScenario({
      ...BASE,
      cluster: { nodes: 5, segments: 16 },
      client: { maxAttempts: 5, operationTimeoutMs: 'infinite' },
      bugs: { retryConflict: true },
      workload: { concurrency: 4, mix: { get: 1 } },
      faults: [
        { atMs: 3000, action: 'failback', node: 1 },
        { atMs: 1000, action: 'failover', node: 1 },
        { atMs: 1000, action: 'slow', node: 2, factor: 3 },
      ],
    });
    expect(s.cluster).toEqual({ ...DEFAULT_CLUSTER_CONFIG, nodes: 5, segments: 16 });
    expect(s.client).toMatchObject({ maxAttempts: 5, operationTimeoutMs: null, backoffMillis: 100 });
    expect(s.client.bugs).toEqual({ ...DEFAULT_CLIENT_CONFIG.bugs, retryConflict: true });
    expect(s.workload).toMatchObject({ concurrency: 4, keys: DEFAULT_WORKLOAD.keys, mix: { get: 1, put: 0, delete: 0, cas: 0, createOnce: 0 } });
    expect(s.faults.map((f) => `${f.atMs}:${f.action}`)).toEqual(['1000:failover', '1000:slow', '3000:failback']);
  });

  it('an open-loop workload has no closed-loop users unless it asks for them', () => {
    expect(loadScenario({ ...BASE, workload: { ratePerSec: 100 } }).workload.concurrency).toBe(0);
    expect(loadScenario({ ...BASE, workload: { ratePerSec: 100, concurrency: 3 } }).workload.concurrency).toBe(3);
  });

  it('toScenarioInput round-trips through loadScenario', () => {
    const s = loadScenario({ ...BASE, client: { operationTimeoutMs: 'infinite' }, faults: [{ atMs: 5, action: 'hang', node: 0, durationMs: 10 }] });
    expect(loadScenario(toScenarioInput(s))).toEqual(s);
  });
});

describe('invalid scenarios name the field path', () => {
  type Row = [name: string, input: unknown, path: string, message: RegExp];
  const rows: Row[] = [
    ['typo in a top-level field', { ...BASE, faluts: [] }, '', /unknown field.*"faluts"/],
    ['typo in a cluster field', { ...BASE, cluster: { nodez: 3 } }, 'cluster', /unknown field.*"nodez"/],
    ['typo in a client field', { ...BASE, client: { maxAttempt: 3 } }, 'client', /unknown field.*"maxAttempt"/],
    ['typo in a bug toggle', { ...BASE, bugs: { deadlineReplacesAttempt: true } }, 'bugs', /unknown field.*"deadlineReplacesAttempt"/],
    ['typo in the mix', { ...BASE, workload: { mix: { gte: 1 } } }, 'workload.mix', /unknown field.*"gte"/],
    ['typo in a fault', { ...BASE, faults: [{ atMs: 1, action: 'failover', nod: 1 }] }, 'faults[0]', /unknown field.*"nod"/],
    ['name missing', { seed: 1, durationMs: 5 }, 'name', /name must be a string/],
    ['seed missing', { name: 'x', durationMs: 5 }, 'seed', /seed must be a whole number/],
    ['durationMs missing', { name: 'x', seed: 1 }, 'durationMs', /durationMs must be a number/],
    ['name of the wrong type', { ...BASE, name: 7 }, 'name', /name must be a string/],
    ['empty name', { ...BASE, name: '' }, 'name', /must not be empty/],
    ['seed as a string', { ...BASE, seed: '1' }, 'seed', /seed must be a whole number/],
    ['fractional seed', { ...BASE, seed: 1.5 }, 'seed', /whole number/],
    ['negative seed', { ...BASE, seed: -1 }, 'seed', /≥ 0/],
    ['durationMs as a string', { ...BASE, durationMs: '10s' }, 'durationMs', /number of ms/],
    ['durationMs of zero', { ...BASE, durationMs: 0 }, 'durationMs', /≥ 1/],
    ['cluster.nodes as a string', { ...BASE, cluster: { nodes: '3' } }, 'cluster.nodes', /number/],
    ['cluster.nodes fractional', { ...BASE, cluster: { nodes: 2.5 } }, 'cluster.nodes', /whole number/],
    ['cluster.segments zero', { ...BASE, cluster: { segments: 0 } }, 'cluster.segments', /≥ 1/],
    ['replicas not below nodes', { ...BASE, cluster: { nodes: 2, replicas: 2 } }, 'cluster.replicas', /replicas must be less than nodes/],
    ['client.maxAttempts zero', { ...BASE, client: { maxAttempts: 0 } }, 'client.maxAttempts', /≥ 1/],
    ['client.operationTimeoutMs bad word', { ...BASE, client: { operationTimeoutMs: 'forever' } }, 'client.operationTimeoutMs', /infinite/],
    ['bug toggle not a boolean', { ...BASE, bugs: { retryConflict: 'yes' } }, 'bugs.retryConflict', /boolean/],
    ['workload.distribution not in the list', { ...BASE, workload: { distribution: 'gauss' } }, 'workload.distribution', /"uniform" or "zipf"/],
    ['negative mix weight', { ...BASE, workload: { mix: { get: -1 } } }, 'workload.mix.get', /≥ 0/],
    ['faults not a list', { ...BASE, faults: { atMs: 1 } }, 'faults', /list of \{ atMs, action, node\? \}/],
    ['fault atMs as a string', { ...BASE, faults: [{ atMs: '1s', action: 'failover', node: 1 }] }, 'faults[0].atMs', /atMs must be a number of ms/],
    ['fault atMs negative', { ...BASE, faults: [{ atMs: -1, action: 'failover', node: 1 }] }, 'faults[0].atMs', /≥ 0/],
    ['fault probability above 1', { ...BASE, faults: [{ atMs: 1, action: 'lostAck', node: 1, probability: 2 }] }, 'faults[0].probability', /\(0, 1\]/],
    ['fault probability 0 (it would do nothing)', { ...BASE, faults: [{ atMs: 1, action: 'garble', node: 1, probability: 0 }] }, 'faults[0].probability', /\(0, 1\] \(0 would do nothing\)/],
    ['fault factor below 1', { ...BASE, faults: [{ atMs: 1, action: 'slow', node: 1, factor: 0.5 }] }, 'faults[0].factor', /> 1/],
    ['fault factor 1 (it would not slow the link)', { ...BASE, faults: [{ atMs: 1, action: 'slow', node: 1, factor: 1 }] }, 'faults[0].factor', /> 1 \(1 would not slow the link\)/],
    ['fault node missing for a failover', { ...BASE, faults: [{ atMs: 1, action: 'failover' }] }, 'faults[0].node', /node is required/],
    ['fault node fractional', { ...BASE, faults: [{ atMs: 1, action: 'hang', node: 0.5 }] }, 'faults[0].node', /whole number/],
    ['fault after the end of the run', { ...BASE, faults: [{ atMs: 10_001, action: 'failover', node: 1 }] }, 'faults[0].atMs', /not before the end of the run \(durationMs 10000\)/],
    ['fault exactly at the end of the run (it would do nothing)', { ...BASE, faults: [{ atMs: 10_000, action: 'scaleOut' }] }, 'faults[0].atMs', /^atMs 10000 is not before the end of the run \(durationMs 10000\): a fault must start before it$/],
    ['failover of a node already down', { ...BASE, faults: [{ atMs: 1_000, action: 'failover', node: 1 }, { atMs: 2_000, action: 'failover', node: 1 }] }, 'faults[1].node', /^node 1 is already down at 2000 ms \(failover at 1000 ms\): fail it back first$/],
    ['more scale-outs than the node cap', { ...BASE, faults: Array.from({ length: 30 }, (_, i) => ({ atMs: i, action: 'scaleOut' })) }, 'faults[29]', /^scaleOut at 29 ms would make 33 nodes: a cluster has at most 32 \(cluster.nodes plus scale-outs\)$/],
    ['a field the action does not take', { ...BASE, faults: [{ atMs: 0, action: 'failover', node: 1, factor: 3 }] }, 'faults[0].factor', /^failover takes no factor \(its fields: atMs, action, node\)$/],
    ['a partition direction not in the list', { ...BASE, faults: [{ atMs: 0, action: 'partition', node: 1, direction: 'both' }] }, 'faults[0].direction', /^direction must be one of in, out$/],
    ['workload with concurrency 0 and no rate', { ...BASE, workload: { concurrency: 0 } }, 'workload', /concurrency ≥ 1 or ratePerSec > 0/],
    ['workload with concurrency 0 and rate 0', { ...BASE, workload: { concurrency: 0, ratePerSec: 0 } }, 'workload', /concurrency ≥ 1 or ratePerSec > 0/],
  ];

  it.each(rows)('%s', (_name, input, path, message) => {
    const err = inputError(() => loadScenario(input, 'scenario my.json'));
    expect(err.source).toBe('scenario my.json');
    expect(issueAt(err, path).message).toMatch(message);
    // the message of the error names the path too (what the CLI prints)
    if (path !== '') expect(err.message).toContain(`${path}: `);
    expect(err.message.startsWith('scenario my.json: ')).toBe(true);
  });

  it('an action not in the list names every allowed action', () => {
    const err = inputError(() => loadScenario({ ...BASE, faults: [{ atMs: 0, action: 'explode', node: 1 }] }));
    const issue = issueAt(err, 'faults[0].action');
    expect(issue.message).toBe(`action must be one of ${FAULT_ACTIONS.join(', ')}`);
    for (const a of FAULT_ACTIONS) expect(issue.message).toContain(a);
  });

  it('every bad field is reported, not just the first', () => {
    const err = inputError(() => loadScenario({ name: 3, seed: 'x', durationMs: 5, cluster: { nodez: 1 }, faults: [{ atMs: 0, action: 'nope', node: 0 }] }));
    expect(err.issues.map((i) => i.path).sort()).toEqual(['cluster', 'faults[0].action', 'name', 'seed']);
  });

  it('not an object at all', () => {
    for (const input of [null, [], 'scenario', 42]) expect(inputError(() => loadScenario(input)).issues.length).toBeGreaterThan(0);
  });

  // SPEC §2: owner and replicas sit on distinct nodes. The rule must hold for the
  // effective cluster (defaults included), not only when both fields are written.
  it.each([
    ['nodes: 1 with the default replicas (1)', { nodes: 1 }],
    ['replicas: 3 with the default nodes (3)', { replicas: 3 }],
  ])('replicas must be less than nodes also when one side is the default: %s', (_name, cluster) => {
    const err = inputError(() => loadScenario({ ...BASE, cluster }));
    expect(issueAt(err, 'cluster.replicas').message).toMatch(/replicas must be less than nodes/);
  });
});

describe('fault nodes must exist at their time', () => {
  it('a node beyond the initial members is rejected, naming the time and the range', () => {
    const err = inputError(() => loadScenario({ ...BASE, cluster: { nodes: 3 }, faults: [{ atMs: 500, action: 'failover', node: 3 }] }));
    expect(issueAt(err, 'faults[0].node').message).toBe('node 3 does not exist at 500 ms (nodes 0..2)');
  });

  it('the same node is valid after a scaleOut added it', () => {
    const s = loadScenario({
      ...BASE,
      faults: [
        { atMs: 1000, action: 'scaleOut' },
        { atMs: 2000, action: 'failover', node: 3 },
        { atMs: 3000, action: 'scaleOut' },
        { atMs: 4000, action: 'hang', node: 4 },
      ],
    });
    expect(s.faults).toHaveLength(4);
  });

  it('the order is by time, not by position in the file', () => {
    // listed first, but happens before the scaleOut
    const err = inputError(() =>
      loadScenario({
        ...BASE,
        faults: [
          { atMs: 2000, action: 'scaleOut' },
          { atMs: 1000, action: 'failover', node: 3 },
        ],
      }),
    );
    expect(issueAt(err, 'faults[1].node').message).toMatch(/does not exist at 1000 ms/);
    // listed after, happens after: fine
    expect(() =>
      loadScenario({
        ...BASE,
        faults: [
          { atMs: 2000, action: 'failover', node: 3 },
          { atMs: 1000, action: 'scaleOut' },
        ],
      }),
    ).not.toThrow();
  });

  it('scaleOut and failback may omit the node; a failed-back node may fail over again', () => {
    const s = loadScenario({
      ...BASE,
      faults: [
        { atMs: 9_999, action: 'scaleOut' },
        { atMs: 100, action: 'failover', node: 1 },
        { atMs: 200, action: 'failback' },
        { atMs: 300, action: 'failover', node: 1 },
      ],
    });
    expect(s.faults).toHaveLength(4);
  });
});

describe('parseScenarioText', () => {
  it('invalid JSON names the source and the position', () => {
    const err = inputError(() => parseScenarioText('{"name": "x",', 'broken.json'));
    expect(err.source).toBe('broken.json');
    expect(err.issues).toHaveLength(1);
    expect(err.issues[0]?.message).toMatch(/^not valid JSON: .*position/);
    expect(err.message).toMatch(/^broken\.json: not valid JSON/);
  });

  it('valid JSON goes through the same validation', () => {
    expect(parseScenarioText(JSON.stringify(BASE))).toEqual(loadScenario(BASE));
    const err = inputError(() => parseScenarioText(JSON.stringify({ ...BASE, faluts: [] }), 'f.json'));
    expect(err.message).toMatch(/faluts/);
  });
});

describe('environment overrides (SPEC §7)', () => {
  it.each([
    ['2s', 2000],
    ['250ms', 250],
    ['60', 60_000],
    ['0.5', 500],
    ['1m', 60_000],
    ['infinite', null],
  ])('ZARIS_REQUEST_TIMEOUT=%s → operationTimeoutMs %s, over the file', (raw, expected) => {
    const s = loadScenario({ ...BASE, client: { operationTimeoutMs: 9000 } }, 'scenario', { ZARIS_REQUEST_TIMEOUT: raw });
    expect(s.client.operationTimeoutMs).toBe(expected);
  });

  it('ZARIS_DISABLE_RETRIES and ZARIS_CLIENT_MAP_REFRESH_WAIT_MS apply too', () => {
    const s = loadScenario(BASE, 'scenario', { ZARIS_DISABLE_RETRIES: 'true', ZARIS_CLIENT_MAP_REFRESH_WAIT_MS: '1234' });
    expect(s.client).toMatchObject({ disableRetries: true, refreshWaitBudgetMs: 1234 });
  });

  it('the environment overrides the schedule too: a change of a setting it sets is left out, the rest of the change applies', () => {
    const input = {
      ...BASE,
      durationMs: 3_000,
      workload: { ratePerSec: 500 },
      faults: [{ atMs: 1_000, action: 'failover', node: 1 }],
      changes: [{ atMs: 500, client: { disableRetries: false, operationTimeoutMs: 30_000, maxAttempts: 5 } }],
    };
    const s = loadScenario(input, 'scenario', { ZARIS_DISABLE_RETRIES: 'true' });
    expect(s.changes[0]?.client).toEqual({ operationTimeoutMs: 30_000, maxAttempts: 5 });
    expect(scheduleAt(s, 2_000).client).toMatchObject({ disableRetries: true, operationTimeoutMs: 30_000, maxAttempts: 5 });
    // the run: one attempt per operation to the end, through the failover (retries stopped at 0.5 s before)
    const attempts = runScenario(s).summary.attempts;
    expect(attempts).toMatchObject({ retries: 0, maxPerOp: 1 });
    expect(runScenario(loadScenario(input)).summary.attempts.retries).toBeGreaterThan(0);
  });

  it('an empty or absent variable changes nothing', () => {
    expect(loadScenario(BASE, 'scenario', { ZARIS_REQUEST_TIMEOUT: '' }).client.operationTimeoutMs).toBe(60_000);
    expect(loadScenario(BASE, 'scenario', {}).client.operationTimeoutMs).toBe(60_000);
  });

  it.each([
    ['ZARIS_REQUEST_TIMEOUT', 'abc', /infinite/],
    ['ZARIS_REQUEST_TIMEOUT', '-5', /infinite/],
    ['ZARIS_DISABLE_RETRIES', 'yes', /"true" or "false"/],
    ['ZARIS_CLIENT_MAP_REFRESH_WAIT_MS', '2s', /whole number of milliseconds/],
  ])('a bad %s=%s is an error naming the variable and the value', (name, raw, message) => {
    const err = inputError(() => loadScenario(BASE, 'scenario', { [name]: raw }));
    const issue = issueAt(err, name);
    expect(issue.message).toMatch(message);
    expect(issue.message).toContain(`"${raw}"`);
    expect(err.message).toContain(name);
  });
});

describe('scheduleAt', () => {
  const base = { client: DEFAULT_CLIENT_CONFIG, workload: DEFAULT_WORKLOAD };
  it('runs from 0 unless paused; a session that began paused has not started until its first resume', () => {
    const state = (changes: Scenario['changes'], t: number) => {
      const { running, everStarted } = scheduleAt({ ...base, changes }, t);
      return { running, everStarted };
    };
    expect(state([], 0)).toEqual({ running: true, everStarted: true });
    const recorded = [{ atMs: 0, paused: true }, { atMs: 500, client: { maxAttempts: 5 } }, { atMs: 1000, paused: false }, { atMs: 3000, paused: true }];
    expect(state(recorded, 0)).toEqual({ running: false, everStarted: false });
    expect(state(recorded, 999)).toEqual({ running: false, everStarted: false });
    expect(state(recorded, 1000)).toEqual({ running: true, everStarted: true });
    expect(state(recorded, 3000)).toEqual({ running: false, everStarted: true });
    // paused later on: it ran before
    expect(state([{ atMs: 2000, paused: true }], 2500)).toEqual({ running: false, everStarted: true });
  });

  it('gives the client configuration and the workload in effect at the time', () => {
    const changes = [{ atMs: 500, client: { maxAttempts: 5 } }, { atMs: 900, workload: { ratePerSec: 100 } }, { atMs: 1500, client: { bugs: { deadlineReplacesAttempts: true } } }];
    expect(scheduleAt({ ...base, changes }, 499).client).toEqual(DEFAULT_CLIENT_CONFIG);
    expect(scheduleAt({ ...base, changes }, 500).client.maxAttempts).toBe(5);
    expect(scheduleAt({ ...base, changes }, 1000).workload.ratePerSec).toBe(100);
    const late = scheduleAt({ ...base, changes }, 2000).client;
    expect([late.maxAttempts, late.bugs.deadlineReplacesAttempts]).toEqual([5, true]);
  });
});
