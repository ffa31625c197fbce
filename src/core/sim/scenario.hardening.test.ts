/**
 * Inputs that used to be accepted silently with another meaning, or
 * answered with a weak message (issue 11's audit of bad inputs).
 */
import { describe, expect, it } from 'vitest';
import { findDuplicateKey } from '../jsonText';
import { InputError } from '../validation';
import { loadScenario, parseScenarioText } from './scenario';

const BASE = { name: 'h', seed: 1, durationMs: 1000 };

function issues(fn: () => unknown): string[] {
  try {
    fn();
  } catch (e) {
    if (e instanceof InputError) return e.issues.map((i) => `${i.path}: ${i.message}`);
    throw e;
  }
  throw new Error('accepted');
}

describe('one setting given twice with two values', () => {
  it('a bug toggle in bugs and in client.bugs with two values is refused, naming both', () => {
    expect(issues(() => loadScenario({ ...BASE, client: { bugs: { retryConflict: true } }, bugs: { retryConflict: false } }))).toEqual([
      'bugs.retryConflict: bugs.retryConflict is false but client.bugs.retryConflict is true: give each toggle once (in bugs or in client.bugs)',
    ]);
    expect(loadScenario({ ...BASE, client: { bugs: { retryConflict: true } }, bugs: { retryConflict: true } }).client.bugs.retryConflict).toBe(true);
  });

  it('a setting changed twice at one instant is refused (the later entry won silently); at two instants it is a schedule', () => {
    const changes = [
      { atMs: 5, client: { maxAttempts: 2 } },
      { atMs: 5, client: { maxAttempts: 7 }, workload: { keys: 10 } },
      { atMs: 5, workload: { keys: 20 }, paused: true },
      { atMs: 6, client: { maxAttempts: 7 } },
    ];
    expect(issues(() => loadScenario({ ...BASE, changes }))).toEqual([
      'changes[1].client.maxAttempts: client.maxAttempts is set twice at 5 ms (changes[0] sets it too): give each setting once per instant',
      'changes[2].workload.keys: workload.keys is set twice at 5 ms (changes[1] sets it too): give each setting once per instant',
    ]);
  });
});

describe('duplicated keys and a byte-order mark', () => {
  it.each([
    ['{"a":1,"a":2}', { path: 'a', key: 'a', line: 1 }],
    ['{"client":{"maxAttempts":2,\n"maxAttempts":5}}', { path: 'client.maxAttempts', key: 'maxAttempts', line: 2 }],
    ['{"faults":[{"atMs":1},{"atMs":1,"node":0,"node":1}]}', { path: 'faults[1].node', key: 'node', line: 1 }],
    ['{"a":"x\\"a","b":{"a":1},"c":[{"a":1},{"a":1}]}', null],
    ['{"a\\u0062":1,"ab":2}', { path: 'ab', key: 'ab', line: 1 }],
  ] as const)('findDuplicateKey(%s)', (text, expected) => {
    expect(findDuplicateKey(text)).toEqual(expected);
  });

  it('a scenario with a key given twice is refused, naming the key and the line', () => {
    const text = `{"name":"h","seed":1,"durationMs":1000,\n"workload":{"concurrency":4,"concurrency":8}}`;
    expect(issues(() => parseScenarioText(text, 'f.json'))).toEqual(['workload.concurrency: the key "concurrency" appears twice in one object (line 2); give each setting once']);
  });

  it('a syntax error without a position (an unexpected token) is given one, with line and column; an empty file is named as such', () => {
    expect(issues(() => parseScenarioText('{"name":"h","seed":1,\n"durationMs":NaN}', 'f.json'))).toEqual([expect.stringMatching(/^: not valid JSON: Unexpected token 'N', .* at position 35 \(line 2,? column 14\)$/)]);
    expect(issues(() => parseScenarioText('[1,2,,3]', 'f.json'))).toEqual([expect.stringMatching(/at position 5 \(line 1,? column 6\)$/)]);
    for (const empty of ['', '  \n\t', '\ufeff']) {
      expect(issues(() => parseScenarioText(empty, 'f.json'))).toEqual([': the file is empty (or only white space): a scenario is a JSON object such as { "name": "my-run", "seed": 1, "durationMs": 16000 }']);
    }
  });

  it('a syntax error is one line, with line and column for a position', () => {
    // (newer Node versions name line and column themselves)
    expect(issues(() => parseScenarioText('{"name":"h",\n  "seed":1,}', 'f.json'))).toEqual([expect.stringMatching(/^: not valid JSON: .* at position 24 \(line 2,? column 12\)$/)]);
    const [comment] = issues(() => parseScenarioText('// a comment\n{}', 'f.json'));
    expect(comment).toMatch(/^: not valid JSON: Unexpected token/);
    expect(comment).not.toMatch(/\n/);
    expect(comment).toContain('\\n');
  });

  it('a UTF-8 byte-order mark is skipped (not "Unexpected token")', () => {
    expect(parseScenarioText(`\uFEFF${JSON.stringify(BASE)}`).name).toBe('h');
  });
});

describe('a run summary opened as a scenario', () => {
  it('gets one line saying what it is and what to open instead, not a line per unknown field', async () => {
    const { runScenario } = await import('./runScenario');
    const { findPreset } = await import('./presets');
    const input = findPreset('steady')?.input as object;
    const summary = runScenario(loadScenario({ ...input, durationMs: 1000 }, 'steady')).summary;
    const got = issues(() => parseScenarioText(JSON.stringify(summary, null, 2), 'summary.json'));
    expect(got).toHaveLength(1);
    expect(got[0]).toMatch(/^: this is a run summary \(the output of npm run sim -- … --json\), not a scenario: .*--events <file>/);
  });
});

describe('numbers: the range is named', () => {
  it('"3" as a string names the range and the fix', () => {
    expect(issues(() => loadScenario({ ...BASE, cluster: { nodes: '3' }, client: { maxAttempts: '3' } }))).toEqual([
      'cluster.nodes: must be a whole number in 1..32; got the string "3" (write the number without quotes)',
      'client.maxAttempts: maxAttempts must be a whole number 1–1000; got the string "3" (write the number without quotes)',
    ]);
  });

  it('a schema message without a range gets it', () => {
    expect(issues(() => loadScenario({ ...BASE, seed: '1' }))).toEqual(['seed: seed must be a whole number (allowed: 0..2147483647); got the string "1" (write the number without quotes)']);
  });

  it('a fraction or 1e300 at a whole-number field names the range and the value (not just "must be a whole number")', () => {
    expect(issues(() => loadScenario({ ...BASE, seed: 1e300, cluster: { nodes: 1.5 }, client: { maxAttempts: 1e300 }, faults: [{ atMs: 1, action: 'failover', node: 1e300 }] }))).toEqual([
      'seed: seed must be a whole number (allowed: 0..2147483647); got number 1e+300',
      'cluster.nodes: must be a whole number (allowed: 1..32); got number 1.5',
      'client.maxAttempts: maxAttempts must be a whole number (allowed: 1..1000); got number 1e+300',
      'faults[0].node: node must be a whole number (allowed: ≥ 0); got number 1e+300',
    ]);
  });

  it('operationTimeoutMs: 1e300 gets one line with the range', () => {
    expect(issues(() => loadScenario({ ...BASE, client: { operationTimeoutMs: 1e300 } }))).toEqual([
      'client.operationTimeoutMs: operationTimeoutMs must be a whole number of ms in 1..86400000',
    ]);
  });

  it.each(['ZARIS_REQUEST_TIMEOUT', 'ZARIS_CLIENT_MAP_REFRESH_WAIT_MS'])('a 400-digit %s is refused (not Infinity, printed as null)', (name) => {
    const raw = `1${'0'.repeat(399)}`;
    const [line] = issues(() => loadScenario(BASE, 'preset', { [name]: raw }));
    expect(line).toMatch(new RegExp(`^${name}: .*86400`));
    expect(line).toContain('(400 characters)');
  });
});

describe('objects and strings: the fields are named', () => {
  it('a list, null or a number where an object belongs names its fields and what was found (not zod\'s "expected object")', () => {
    expect(issues(() => loadScenario([BASE]))).toEqual([
      ': the file must hold one JSON object (fields: name, description, seed, durationMs, cluster, client, bugs, workload, faults, changes); got a list',
    ]);
    expect(issues(() => loadScenario({ ...BASE, client: null, workload: { mix: [] }, faults: [null], changes: [5] }))).toEqual([
      'client: must be an object (fields: maxAttempts, backoffMillis, operationTimeoutMs, disableRetries, refreshWaitBudgetMs, refreshDebounceMs, attemptTimeoutMs, bugs); got null',
      'workload.mix: must be an object (fields: get, put, delete, cas, createOnce); got a list',
      'faults[0]: must be an object (fields: atMs, action, node, durationMs, factor, probability, direction); got null',
      'changes[0]: must be an object (fields: atMs, client, workload, paused); got number 5',
    ]);
  });

  it('200000 unknown fields: the line names the first ten and counts the rest', () => {
    const input: Record<string, unknown> = { ...BASE };
    for (let i = 0; i < 200_000; i++) input[`k${i}`] = i;
    expect(issues(() => loadScenario(input))).toEqual([': unknown field(s) "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8", "k9" and 199990 more (typo? unknown fields are not allowed)']);
  });

  it('a string field given an object says so', () => {
    expect(issues(() => loadScenario({ ...BASE, description: { a: 1 } }))).toEqual(['description: must be a string; got an object']);
  });
});

describe('nothing accepted that changes meaning', () => {
  it.each(['a\nb', 'tab\there', 'red \u001b[31m', 'c1 \u009b'])('a name with a control character (%j) is refused: it heads the CLI table', (name) => {
    expect(issues(() => loadScenario({ ...BASE, name }))).toEqual(['name: name must be one line without control characters (line breaks, tabs, escape sequences)']);
  });

  it.each(['run\u202Enosj', 'a\u2028b', 'zero\u200Bwidth', 'iso\u2066late\u2069', '\uFEFFbom'])('a name with an invisible direction or line-separator character (%j) is refused: it changes how the name reads', (name) => {
    expect(issues(() => loadScenario({ ...BASE, name }))).toEqual([expect.stringMatching(/^name: name must not contain invisible direction or line-separator characters/)]);
  });

  it('a name in any script, with emoji, is fine', () => {
    expect(loadScenario({ ...BASE, name: 'Zürich 東京 🚀' }).name).toBe('Zürich 東京 🚀');
    // joiners are part of scripts and emoji sequences
    expect(loadScenario({ ...BASE, name: 'family 👨\u200D👩\u200D👧 नमस्ते' }).name).toContain('\u200D');
  });

  it('thinkMs above one hour (1e308 used to run as "never think again") is refused, in the workload and in a change', () => {
    expect(issues(() => loadScenario({ ...BASE, workload: { thinkMs: 1e308 } }))).toEqual(['workload.thinkMs: thinkMs must be ≤ 3600000 ms (one hour) (and ≥ 0); got number 1e+308']);
    expect(issues(() => loadScenario({ ...BASE, changes: [{ atMs: 10, workload: { thinkMs: 86_400_001 } }] }))).toEqual([
      'changes[0].workload.thinkMs: thinkMs must be ≤ 3600000 ms (one hour) (and ≥ 0); got number 86400001',
    ]);
  });

  it('all mix weights 0 (which used to run 100 % get) is refused, in the workload and in a change', () => {
    expect(issues(() => loadScenario({ ...BASE, workload: { mix: { get: 0, put: 0 } } }))).toEqual([
      'workload.mix: mix weights are all 0 (or none given): at least one of get, put, delete, cas, createOnce must be > 0',
    ]);
    expect(issues(() => loadScenario({ ...BASE, changes: [{ atMs: 10, workload: { mix: {} } }] }))[0]).toMatch(/^changes\[0\]\.workload\.mix: mix weights are all 0/);
  });

  it('a timed fault of 0 ms (it ended as it started, and was listed as if it happened) is refused, naming the field', () => {
    for (const action of ['hang', 'slow', 'lostAck', 'partition', 'garble'] as const) {
      expect(issues(() => loadScenario({ ...BASE, faults: [{ atMs: 100, action, node: 0, durationMs: 0 }] })), action).toEqual([
        'faults[0].durationMs: durationMs must be > 0 ms: a fault of 0 ms ends as it starts (omit it for the default) (and ≤ 3600000); got number 0',
      ]);
    }
  });

  it('a mix weight above 1e6 (1e308 + 1e308 summed to Infinity and ran 100 % get) is refused, naming the weight', () => {
    expect(issues(() => loadScenario({ ...BASE, workload: { mix: { get: 1e308, put: 1e308 } } }))).toEqual([
      'workload.mix.get: weights must be ≤ 1000000 (they are shares: 0.5 and 0.5 is the same mix as 1 and 1) (and ≥ 0); got number 1e+308',
      'workload.mix.put: weights must be ≤ 1000000 (they are shares: 0.5 and 0.5 is the same mix as 1 and 1) (and ≥ 0); got number 1e+308',
    ]);
    expect(loadScenario({ ...BASE, workload: { mix: { get: 1_000_000, put: 1 } } }).workload.mix).toMatchObject({ get: 1_000_000, put: 1 });
  });

  it('a zero-time closed loop is refused; an open loop, a think time or any latency lets time advance', () => {
    const zero = { latencyMs: 0, jitterMs: 0, getServiceMs: 0, writeServiceMs: 0, replicationMs: 0 };
    expect(issues(() => loadScenario({ ...BASE, cluster: zero }))[0]).toMatch(/^cluster: every operation would take 0 ms/);
    expect(loadScenario({ ...BASE, cluster: zero, workload: { ratePerSec: 100 } }).workload.concurrency).toBe(0);
    expect(loadScenario({ ...BASE, cluster: zero, workload: { thinkMs: 1 } }).workload.thinkMs).toBe(1);
    expect(loadScenario({ ...BASE, cluster: { ...zero, writeServiceMs: 0.01 } }).cluster.writeServiceMs).toBe(0.01);
    // only gets drawn, and gets take no time: stuck again
    expect(issues(() => loadScenario({ ...BASE, cluster: { ...zero, writeServiceMs: 0.01 }, workload: { mix: { get: 1 } } }))[0]).toMatch(/every operation would take 0 ms/);
    // a change to a zero-time closed loop
    expect(issues(() => loadScenario({ ...BASE, cluster: zero, workload: { ratePerSec: 100 }, changes: [{ atMs: 10, workload: { concurrency: 2, ratePerSec: 0 } }] }))[0]).toMatch(
      /^changes\[0\]\.workload: every operation would take 0 ms/,
    );
  });
});

describe('review of 2026-12-02', () => {
  it('a positive time below 1 µs is refused (1e-300 ms made a run that never ended, virtual time all but standing still)', () => {
    const zero = { latencyMs: 0, jitterMs: 0, getServiceMs: 0, writeServiceMs: 0, replicationMs: 0 };
    expect(issues(() => loadScenario({ ...BASE, cluster: zero, workload: { concurrency: 2, thinkMs: 1e-300 } }))).toEqual([
      'workload.thinkMs: thinkMs must be 0 or ≥ 0.001 ms (1 µs): a smaller positive time would keep virtual time from advancing',
    ]);
    expect(issues(() => loadScenario({ ...BASE, cluster: { latencyMs: 1e-300 } }))).toEqual([
      'cluster.latencyMs: must be 0 or ≥ 0.001 ms (1 µs): a smaller positive time would keep virtual time from advancing',
    ]);
    expect(() => loadScenario({ ...BASE, cluster: { latencyMs: 0.001 }, workload: { thinkMs: 0 } })).not.toThrow();
  });

  it('one bad field is named once: the rules across fields do not blame the fields that read it', () => {
    expect(issues(() => loadScenario({ ...BASE, durationMs: -5, faults: [{ atMs: 1, action: 'failover', node: 1 }], changes: [{ atMs: 2, paused: true }] }))).toEqual([
      'durationMs: durationMs must be ≥ 1 (and ≤ 3600000); got number -5',
    ]);
    expect(issues(() => loadScenario({ ...BASE, cluster: { nodes: 0 } }))).toEqual(['cluster.nodes: must be ≥ 1 (and ≤ 32); got number 0']);
  });

  it('a number out of range hears of both bounds', () => {
    expect(issues(() => loadScenario({ ...BASE, workload: { keys: 0, zipfExponent: 9 } }))).toEqual([
      'workload.keys: keys must be ≥ 1 (and ≤ 10000000); got number 0',
      'workload.zipfExponent: zipfExponent must be ≤ 5 (and ≥ 0); got number 9',
    ]);
    expect(issues(() => loadScenario({ ...BASE, client: { attemptTimeoutMs: 0.5 } }))).toEqual(['client.attemptTimeoutMs: attemptTimeoutMs must be a whole number of ms in 1..86400000; got number 0.5']);
  });

  it('a bad environment value is the environment\'s, not the scenario\'s', () => {
    let source = '';
    try {
      loadScenario(BASE, 'preset steady', { ZARIS_REQUEST_TIMEOUT: 'soon' });
    } catch (e) {
      source = (e as { source: string }).source;
    }
    expect(source).toBe('environment (ZARIS_* variables)');
  });
});
