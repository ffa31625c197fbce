import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { compareRuns } from '../../core/replay/compare';
import { runScenario } from '../../core/sim/runScenario';
import { loadScenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import { deltaSections, verdictSentence } from '../compare/deltaRows';
import { reviewReportHtml } from './report';
import { invariantLabel } from '../store/logSelectors';
import { svgDocument } from './svgDoc';

describe('the review report', () => {
  const sc = loadScenario(shortenedPreset('failover', 4000, 0.1));
  const storm = { ...sc.client, bugs: { ...sc.client.bugs, deadlineReplacesAttempts: true } };
  const a = runScenario(sc).summary;
  const b = runScenario({ ...sc, client: storm }).summary;
  const c = compareRuns(a, b);
  const html = reviewReportHtml({
    title: 'failover · seed 1 · A/B review',
    scenario: sc.name,
    seed: sc.seed,
    cluster: '3 nodes',
    source: 'preset failover',
    workload: 'open loop',
    sides: [
      { id: 'a', label: 'fixed client', client: DEFAULT_CLIENT_CONFIG, verdict: 'verdict: all 4 invariants kept' },
      { id: 'b', label: 'storm <on>', client: storm, verdict: 'verdict: attemptBudgetKept 7× (expected: a bug toggle is on)' },
    ],
    verdictSentence: verdictSentence(c.verdict, 'fixed client', 'storm'),
    better: c.verdict.better,
    sections: deltaSections(c),
    invariants: c.invariants,
    charts: [{ title: 'chart', svg: svgDocument(10, 10, [{ kind: 'rect', x: 0, y: 0, w: 5, h: 5, fill: 'red' }]) }],
    link: 'http://127.0.0.1:5173/?preset=failover&view=compare',
  });

  it('is one self-contained document: no script, no external reference', () => {
    expect(html.startsWith('<!doctype html>')).toBe(true);
    expect(html).not.toMatch(/<script|<link|<img|<iframe|src=|href=|@import|url\((?!#)/i);
    expect(html).toContain('<style>');
  });

  it('carries identity, toggles, verdict, every table row and the inline charts', () => {
    expect(html).toContain('<dt>seed</dt><dd>1</dd>');
    expect(html).toContain('storm &lt;on&gt;');
    expect(html).toContain('deadlineReplacesAttempts');
    expect(html).toContain(verdictSentence(c.verdict, 'fixed client', 'storm').replace(/&/g, '&amp;'));
    for (const m of c.metrics) expect(html).toContain(`data-metric="${m.id}"`);
    // in the app's words, the checker's name under them (it read "noLostAckedWrites" alone)
    for (const i of c.invariants) expect(html).toContain(`<tr data-invariant="${i.name}"><th>${invariantLabel(i.name)}<small>${i.name}</small></th>`);
    expect(html).toContain('<th>No lost acknowledged writes<small>noLostAckedWrites</small></th>');
    expect(html).toContain('<svg xmlns="http://www.w3.org/2000/svg"');
    expect(html).toContain('http://127.0.0.1:5173/?preset=failover&amp;view=compare</code>');
  });
});
