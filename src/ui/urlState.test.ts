import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BUG_TOGGLES, MAX_SETTING_MS, resolveClientConfig } from '../core/client/config';
import { PRESET_IDS, PRESETS } from '../core/sim/presets';
import { loadScenario, type ScenarioInput } from '../core/sim/scenario';
import { InputError } from '../core/validation';
import { decodeUrlState, DEFAULT_URL_STATE, encodeUrlState, MAX_SEARCH_CHARS, toClientConfigInput, URL_PARAMS, VIEWS, type UrlState } from './urlState';

const togglesArb = fc.subarray([...BUG_TOGGLES]);
const clientArb = fc.record(
  {
    maxAttempts: fc.integer({ min: 1, max: 1000 }),
    backoffMillis: fc.integer({ min: 0, max: 60_000 }),
    operationTimeoutMs: fc.oneof(fc.constant('infinite' as const), fc.integer({ min: 1, max: MAX_SETTING_MS })),
    disableRetries: fc.boolean(),
    refreshWaitBudgetMs: fc.integer({ min: 0, max: MAX_SETTING_MS }),
    refreshDebounceMs: fc.integer({ min: 0, max: MAX_SETTING_MS }),
    attemptTimeoutMs: fc.integer({ min: 1, max: 10 ** 7 }),
    bugs: togglesArb,
  },
  { requiredKeys: [] },
);
/** an inline scenario's random name: any code points but the control, invisible direction and line-separator characters a name may not hold */
const nameArb = fc
  .string({ unit: 'binary', minLength: 1, maxLength: 60 })
  // eslint-disable-next-line no-control-regex
  .map((s) => s.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g, '·'));
const inlineArb = fc
  .record({ base: fc.constantFrom(...PRESETS), name: nameArb, seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }) })
  .map(({ base, name, seed }) => ({ inline: { ...(base.input as ScenarioInput), name, seed } }));
const stateArb: fc.Arbitrary<UrlState> = fc
  .record(
    {
      scenario: fc.oneof(fc.constantFrom(...PRESET_IDS).map((preset) => ({ preset })), inlineArb),
      seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
      client: clientArb,
      view: fc.constantFrom(...VIEWS),
      cursor: fc.double({ min: 0, max: 3_600_000, noNaN: true }),
      compare: fc.record({ a: togglesArb, b: togglesArb }),
    },
    { requiredKeys: ['scenario', 'client', 'view'] },
  );

function issuesOf(search: string): InputError['issues'] {
  try {
    decodeUrlState(search);
  } catch (e) {
    expect(e).toBeInstanceOf(InputError);
    return (e as InputError).issues;
  }
  throw new Error(`expected ${search} to be refused`);
}
const messageOf = (search: string): string => issuesOf(search).map((i) => `${i.path}: ${i.message}`).join('; ');

describe('encodeUrlState / decodeUrlState', () => {
  it('round-trips any state (property)', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        const search = encodeUrlState(state);
        expect(search.length).toBeLessThan(MAX_SEARCH_CHARS);
        expect(decodeUrlState(search)).toEqual(state);
      }),
      { numRuns: 300 },
    );
  });

  it('writes short, readable URLs', () => {
    expect(encodeUrlState(DEFAULT_URL_STATE)).toBe('?preset=failover');
    const s: UrlState = {
      scenario: { preset: 'refresh-storm' },
      seed: 7,
      client: { maxAttempts: 5, operationTimeoutMs: 'infinite', bugs: ['deadlineReplacesAttempts', 'noRefreshDebounce'] },
      view: 'compare',
      cursor: 5250.5,
      compare: { a: [], b: ['deadlineReplacesAttempts'] },
    };
    expect(encodeUrlState(s)).toBe('?preset=refresh-storm&seed=7&maxAttempts=5&operationTimeoutMs=infinite&bugs=deadlineReplacesAttempts,noRefreshDebounce&view=compare&cursor=5250.5&cmpA=none&cmpB=deadlineReplacesAttempts');
    expect(decodeUrlState('')).toEqual(DEFAULT_URL_STATE);
    expect(decodeUrlState('?')).toEqual(DEFAULT_URL_STATE);
    expect(decodeUrlState('preset=steady')).toEqual({ ...DEFAULT_URL_STATE, scenario: { preset: 'steady' } });
    // lists come back in canonical order, %2C and duplicates accepted
    expect(decodeUrlState('?bugs=retryConflict%2CdeadlineReplacesAttempts,retryConflict').client.bugs).toEqual(['deadlineReplacesAttempts', 'retryConflict']);
  });

  it('an inline scenario survives the URL and loads', () => {
    const input = { ...(PRESETS.find((p) => p.id === 'full-churn')?.input as ScenarioInput), name: 'Mein Szenario – Ü' };
    const search = encodeUrlState({ scenario: { inline: input }, client: {}, view: 'replay' });
    expect(search).toMatch(/^\?scenario=z[A-Za-z0-9_-]+&view=replay$/);
    const back = decodeUrlState(search).scenario;
    expect('inline' in back && loadScenario(back.inline).name).toBe('Mein Szenario – Ü');
  });

  it('client overrides feed the one config resolver', () => {
    const { client } = decodeUrlState('?maxAttempts=4&operationTimeoutMs=infinite&disableRetries=true&bugs=noRefreshCoalescing');
    const config = resolveClientConfig(toClientConfigInput(client));
    expect(config).toMatchObject({ maxAttempts: 4, operationTimeoutMs: null, disableRetries: true });
    expect(config.bugs).toEqual({ deadlineReplacesAttempts: false, noRefreshCoalescing: true, noRefreshDebounce: false, unclampedBackoff: false, retryConflict: false });
    expect(toClientConfigInput({ maxAttempts: 2 })).toEqual({ maxAttempts: 2 });
  });
});

describe('hand-edited and hostile URLs', () => {
  it('an unknown preset lists the presets', () => {
    expect(messageOf('?preset=failovr')).toBe(`preset: unknown preset "failovr"; one of ${PRESET_IDS.join(', ')}`);
    expect(messageOf('?preset=__proto__')).toContain('unknown preset "__proto__"');
  });

  it('bad numbers say what is expected', () => {
    expect(messageOf('?maxAttempts=abc')).toBe('maxAttempts: must be a whole number ≥ 1 (got "abc")');
    expect(messageOf('?maxAttempts=0')).toBe('maxAttempts: must be a whole number ≥ 1 (got "0")');
    expect(messageOf('?maxAttempts=5000')).toContain('maxAttempts: maxAttempts must be ≤ 1000');
    expect(messageOf('?maxAttempts=2.5')).toContain('must be a whole number ≥ 1');
    expect(messageOf('?backoffMillis=-5')).toBe('backoffMillis: must be a whole number ≥ 0 (got "-5")');
    expect(messageOf('?operationTimeoutMs=forever')).toBe('operationTimeoutMs: must be a whole number of ms ≥ 0, or infinite (got "forever")');
    expect(messageOf('?seed=1e3')).toBe('seed: must be a whole number from 0 to 2147483647 (got "1e3")');
    expect(messageOf('?seed=99999999999')).toContain('seed: must be a whole number from 0 to 2147483647');
    expect(messageOf('?cursor=NaN')).toContain('cursor: must be a time in ms from 0 to 3600000');
    expect(messageOf('?cursor=-1')).toContain('cursor: must be a time in ms');
    expect(messageOf('?disableRetries=yes')).toBe('disableRetries: must be true or false (got "yes")');
  });

  it('bad enums name the allowed values', () => {
    expect(messageOf('?view=timeline')).toBe('view: must be one of live, replay, compare (got "timeline")');
    expect(messageOf('?bugs=stormy')).toBe(`bugs: unknown bug toggle(s) "stormy"; a comma-separated list of ${BUG_TOGGLES.join(', ')}, or none`);
    expect(messageOf('?cmpA=none&cmpB=oops')).toContain('cmpB: unknown bug toggle(s) "oops"');
    expect(messageOf('?cmpA=none')).toContain('cmpB: missing: cmpA and cmpB come together');
  });

  it('unknown, misspelt and repeated parameters are errors that name them', () => {
    expect(messageOf('?preset=steady&colour=red')).toBe(`colour: unknown parameter; known: ${URL_PARAMS.join(', ')}`);
    expect(messageOf('?MaxAttempts=3')).toContain('MaxAttempts: unknown parameter (did you mean maxAttempts?)');
    expect(messageOf('?seed=1&seed=2')).toBe('seed: given more than once: the first value (1) applies');
    expect(messageOf('?preset=steady&scenario=jMQ')).toContain('scenario: give either preset or scenario, not both');
  });

  it('every problem is reported at once', () => {
    expect(issuesOf('?maxAttempts=x&view=y&foo=1').map((i) => i.path).sort()).toEqual(['foo', 'maxAttempts', 'view']);
  });

  it('a bad inline scenario names the field inside it', () => {
    const bad = encodeUrlState({ scenario: { inline: { name: 'x', seed: 1, durationMs: 1000, faults: [{ atMs: 10, action: 'meteor' as 'failover', node: 1 }] } }, client: {}, view: 'live' });
    expect(messageOf(bad)).toContain('scenario.faults[0].action: action must be one of failover');
    expect(messageOf('?scenario=jbm90IGpzb24')).toContain('scenario: is not valid JSON');
    expect(messageOf('?scenario=zAAAA')).toContain('scenario:');
    expect(messageOf('?scenario=<script>')).toContain('scenario: must start with "j"');
    expect(messageOf(`?scenario=j${'A'.repeat(100)}`)).toContain('scenario: is not valid');
  });

  it('absurdly long parameters and queries are refused', () => {
    expect(messageOf(`?preset=${'a'.repeat(5000)}`)).toBe('preset: is 5000 characters long; at most 200');
    expect(messageOf(`?scenario=j${'A'.repeat(20_000)}`)).toBe('scenario: is 20001 characters long; at most 16384');
    expect(messageOf(`?preset=steady&x=${'a'.repeat(40_000)}`)).toBe(': the query is 40017 characters long; at most 32768');
  });

  it('random garbage never crashes: it decodes or throws an InputError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (s) => {
        try {
          decodeUrlState(s);
        } catch (e) {
          expect(e).toBeInstanceOf(InputError);
        }
      }),
      { numRuns: 500 },
    );
  });
});
