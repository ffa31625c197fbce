import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { invariantReport, TALLIES, type TallyName, type TallyView } from '../../core/sim/invariants';
import { loadScenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import { replayReportHtml } from '../export/report';
import { svgDocument } from '../export/svgDoc';
import { createDashboardStore } from '../store/dashboardStore';
import { scenarioIdentity, type ReplayUiState } from './replayController';
import { invariantsBothWays, replayReportInput } from './replayReport';
import { steadyOps } from '../store/testEvents';
import { invariantLabel } from '../store/logSelectors';

const tallies = (over: Partial<Record<TallyName, number>> = {}) =>
  Object.fromEntries(TALLIES.map((k) => [k, { count: over[k] ?? 0, examples: over[k] ? [1] : [] }])) as unknown as Record<TallyName, TallyView>;
const storm = { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } };

describe('the Replay review report', () => {
  const sc = { ...loadScenario(shortenedPreset('failover', 4000, 0.1)), client: storm };
  // the cursor before the storm (nothing broken yet), the whole run after it
  const atCursor = invariantReport(storm, tallies());
  const wholeRun = invariantReport(storm, tallies({ overBudget: 42 }));
  const ui = {
    run: { identity: scenarioIdentity(sc, 'preset failover'), scenario: sc, presetId: 'failover', kind: 'scenario' },
    status: { cursorMs: 1600, durationMs: 4000, playing: false, speed: 1, generation: 1 },
    info: { id: 1, source: 'engine', durationMs: 4000, events: 10, memory: {}, wholeRun, recordMs: 1, indexMs: 1 },
    budget: { overBudgetInFlight: 0, overBudgetEnded: 0 },
    frameCursorMs: 1500,
  } as unknown as ReplayUiState;
  const base = createDashboardStore().getState();
  const store = { ...base, snapshot: { ...base.snapshot, invariants: atCursor } };

  it('says both verdicts, each labelled, at the frame the panels show', () => {
    const r = replayReportInput(ui, store, [], 'http://x/?view=replay');
    expect(r.cursorMs).toBe(1500);
    expect(r.title).toBe(`${sc.name} · seed ${sc.seed} · replay review at 1.50 s`);
    expect(r.atCursor).toEqual({ tone: 'ok', label: 'invariants kept so far' });
    expect(r.wholeRun).toEqual({ tone: 'expected', label: 'violated, explained by a bug toggle: 42 operations beyond their attempt budget' });
    expect(r.invariants.find((i) => i.name === 'attemptBudgetKept')).toEqual({ name: 'attemptBudgetKept', atCursor: 'ok', atCursorViolations: 0, wholeRun: 'expected', wholeRunViolations: 42 });
    expect(r.figures.map(([k]) => k)).toContain('served');
    expect(() => replayReportInput({ ...ui, info: null }, store, [], null)).toThrow(/still recording/);
  });

  it('is one self-contained document with identity, toggles, verdicts, invariants and inline SVG', () => {
    const chart = svgDocument(10, 10, [{ kind: 'rect', x: 0, y: 0, w: 5, h: 5, fill: 'red' }]);
    const html = replayReportHtml(replayReportInput(ui, store, [{ title: 'Throughput', svg: chart }], 'http://x/?view=replay&preset=failover'));
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=|@import|url\((?!#)/i);
    expect(html).toContain(`<dt>seed</dt><dd>${sc.seed}</dd>`);
    expect(html).toContain('<dt>bug toggles</dt><dd>deadlineReplacesAttempts</dd>');
    expect(html).toMatch(/<p class="verdict"[^>]*data-verdict="cursor" data-tone="ok"><span class="muted">at the cursor \(1\.50 s\):<\/span> invariants kept so far<\/p>/);
    expect(html).toMatch(/data-verdict="run" data-tone="expected">.*42 operations beyond their attempt budget/);
    for (const i of wholeRun.checks) expect(html).toContain(`<tr data-invariant="${i.name}"><th>${invariantLabel(i.name)}<small>${i.name}</small></th>`);
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(html).toContain('view=replay&amp;preset=failover</code>');
  });

  it("says what the run shows at the cursor in the page's words: the status line and the fault cards", () => {
    const st = createDashboardStore();
    st.getState().ingestEvents([{ t: 0, type: 'topology', epoch: 1, change: 'initial', node: 0, segments: [0, 1] }, ...steadyOps(150, 0, 10, 1, 0), { t: 1_200, type: 'fault', action: 'failover', node: 1, segments: [1] }]);
    st.getState().setRunning(true);
    st.getState().publish();
    const r = replayReportInput(ui, st.getState(), [], null);
    expect(r.story.text).toMatch(/^At 1\.5 s: /);
    expect(r.cards.map((c) => c.title)).toEqual(['failover (crash) of node 1 at 1.2 s']);
    const html = replayReportHtml(r);
    expect(html).toContain('<h2>What the run shows at the cursor (1.50 s)</h2>');
    expect(html).toContain('<h3>failover (crash) of node 1 at 1.2 s <small>');
  });

  it('an invariant checked only over the whole run reads "not checked" at the cursor', () => {
    const rows = invariantsBothWays(null, wholeRun);
    expect(rows.every((r) => r.atCursor === null && r.wholeRun !== null)).toBe(true);
  });
});
