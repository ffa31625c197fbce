import { describe, expect, it } from 'vitest';
import { DEFAULT_URL_STATE } from '../urlState';
import { createAppStore, initialParts } from './appStore';
import { paramOf, readUrl, writeUrl } from './appUrl';

describe('reading the URL forgivingly', () => {
  it('reads a good link, keeping development parameters aside', () => {
    const r = readUrl('?preset=refresh-storm&seed=3&view=replay&cursor=6200&feed=sim');
    expect(r.error).toBeNull();
    expect(r.state).toMatchObject({ scenario: { preset: 'refresh-storm' }, seed: 3, view: 'replay', cursor: 6200 });
    expect(r.dev).toBe('feed=sim');
    expect(writeUrl(r.state, r.dev)).toBe('?preset=refresh-storm&seed=3&view=replay&cursor=6200&feed=sim');
  });

  it('drops a bad parameter, says which and why, and keeps the rest', () => {
    const r = readUrl('?preset=refresh-storm&view=replay&cursor=soon&maxAttempts=0');
    expect(r.state).toMatchObject({ scenario: { preset: 'refresh-storm' }, view: 'replay' });
    expect(r.state.cursor).toBeUndefined();
    expect(r.state.client.maxAttempts).toBeUndefined();
    expect(r.error?.issues).toEqual([
      { path: 'maxAttempts', message: 'must be a whole number ≥ 1 (got "0")' },
      { path: 'cursor', message: 'must be a time in ms from 0 to 3600000 (got "soon")' },
    ]);
    expect(r.error?.summary).toBe('This link has problems: maxAttempts, cursor were ignored, the rest of the link applies.');
  });

  it('a repeated parameter is not called ignored: the banner says its first value applies', () => {
    const r = readUrl('?preset=failover&seed=3&seed=4');
    expect(r.state.seed).toBe(3);
    expect(r.error?.summary).toBe('This link has a problem: seed was given more than once (the first value applies), the rest of the link applies.');
  });

  it('a partly bad link applies what it can and names the rest', () => {
    const lone = readUrl('?preset=failover&view=compare&cmpA=noRefreshDebounce&seed=4');
    expect(lone.state).toMatchObject({ scenario: { preset: 'failover' }, view: 'compare', seed: 4, compare: { a: ['noRefreshDebounce'] } });
    expect(lone.state.compare?.b).toBeUndefined();
    expect(lone.error?.summary).toBe('This link has a problem: cmpB was missing, the rest of the link applies.');
    expect(lone.error?.issues[0]?.message).toMatch(/^missing: .*run B keeps the scenario's suggested side$/);
    expect(lone.namedScenario).toBe(true);

    const mixed = readUrl('?preset=failover&view=compare&cmpA=none&cmpB=oops&maxAttempts=5000&backoffMillis=250');
    expect(mixed.state.compare).toEqual({ a: [] });
    expect(mixed.state.client).toEqual({ backoffMillis: 250 });
    expect(mixed.error?.issues.map((i) => i.path).sort()).toEqual(['cmpB', 'maxAttempts']);
    expect(mixed.error?.summary).toMatch(/maxAttempts, cmpB were ignored|cmpB, maxAttempts were ignored/);
    expect(writeUrl(mixed.state, '')).toBe('?preset=failover&backoffMillis=250&view=compare&cmpA=none');

    const both = readUrl('?preset=herd&scenario=abc&view=replay');
    expect(both.state).toMatchObject({ scenario: { preset: 'herd' }, view: 'replay' });
    expect(both.error?.issues[0]?.path).toBe('scenario');
  });

  it('falls back to the defaults when nothing can be read', () => {
    const r = readUrl(`?${'x'.repeat(40_000)}`);
    expect(r.state).toEqual(DEFAULT_URL_STATE);
    expect(r.error?.summary).toMatch(/showing the defaults/);
    expect(readUrl('?scenario=zzzz').error?.issues[0]?.path).toBe('scenario');
    expect(readUrl('?scenario=zzzz').state.scenario).toEqual(DEFAULT_URL_STATE.scenario);
  });

  it('finds the parameter of an issue path', () => {
    expect(paramOf('scenario.faults[0].atMs')).toBe('scenario');
    expect(paramOf('cmpA')).toBe('cmpA');
    expect(paramOf('')).toBe('');
  });
});

describe('app state per view', () => {
  it("gives each view the link's scenario, or its own default", () => {
    const named = initialParts({ state: { scenario: { preset: 'herd' }, client: {}, view: 'compare', compare: { a: [], b: ['noRefreshCoalescing'] } }, namedScenario: true });
    expect(named.compare.compare).toEqual({ a: [], b: ['noRefreshCoalescing'] });
    expect(named.live.scenario).toEqual({ preset: 'herd' });
    expect(named.replay).toEqual({ scenario: { preset: 'herd' }, client: {}, view: 'replay' });
    const bare = initialParts({ state: DEFAULT_URL_STATE, namedScenario: false });
    expect(bare.live.scenario).toEqual({ preset: 'steady' });
    expect(bare.replay.scenario).toEqual({ preset: 'failover' });
  });

  it('merges view state, removing cleared fields, and remembers visited views', () => {
    const app = createAppStore(readUrl('?preset=failover&view=replay&cursor=100'));
    app.getState().setPart('replay', { cursor: undefined, seed: 9 }, 'file x.json');
    expect(app.getState().parts.replay).toEqual({ scenario: { preset: 'failover' }, client: {}, view: 'replay', seed: 9 });
    expect(app.getState().origins.replay).toBe('file x.json');
    app.getState().setView('compare');
    expect(app.getState().visited).toEqual(['replay', 'compare']);
  });
});
