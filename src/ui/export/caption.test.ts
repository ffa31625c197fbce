import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import type { InvariantReport } from '../../core/sim/invariants';
import { TimelineRecorder } from '../../core/replay/opStory';
import { retriedOp } from '../store/testEvents';
import { buildScene } from '../timeline/scene';
import { CAPTION_LINE_H, CAPTION_PAD, captionHeight, captionLines, exportFileName, pairTogglesText, togglesText, verdictText, wholeRunIdentity, type RunIdentity } from './caption';
import { exportSize, timelineLegend, timelineSvg } from './timelineExport';

const storm = { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } };
const identity: RunIdentity = { scenario: 'refresh-storm', seed: 1, nodes: 3, segments: 64, client: storm, source: 'preset refresh-storm' };

const report = (over: number, expected: boolean): InvariantReport => ({
  ok: over === 0 || expected,
  checks: [
    { name: 'noLostAckedWrites', ok: true, violations: 0, expected: false, detail: '', examples: [] },
    { name: 'attemptBudgetKept', ok: over === 0, violations: over, expected, detail: '', examples: [] },
  ],
});

describe('export caption', () => {
  it('names scenario, seed, cluster, source, client, toggles, verdict and time range', () => {
    const lines = captionLines({ identity, what: 'timeline', verdict: verdictText(report(2048, true)), range: { t0: 4500, t1: 10_500 }, cursorMs: 16_000, note: 'lane per operation' });
    expect(lines).toEqual([
      'Zaris Churn Lab — timeline · refresh-storm · seed 1 · 3 nodes / 64 segments · preset refresh-storm',
      'client: 3 attempts · backoff 100 ms · deadline 1 min · wait 15 s · debounce 500 ms · attempt timeout 1 s',
      'bug toggles ON: deadlineReplacesAttempts',
      'verdict: attemptBudgetKept 2048× (expected: a bug toggle is on)',
      'time range 4.50 s – 10.50 s (6 s) · cursor 16.00 s · lane per operation',
    ]);
  });

  it("names the cluster at the cursor, and when, on a line of its own, for an identity at a replay cursor", () => {
    const head = (id: RunIdentity) => captionLines({ identity: id, what: 'Throughput panel', verdict: 'verdict', range: null, cursorMs: 7500 }).slice(0, 3);
    // a run's own identity: its starting topology in the headline, no time
    expect(head(identity)).toEqual(['Zaris Churn Lab — Throughput panel · refresh-storm · seed 1 · 3 nodes / 64 segments · preset refresh-storm', expect.stringMatching(/^client: /), 'bug toggles ON: deadlineReplacesAttempts']);
    const at = (id: RunIdentity) => head(id).slice(0, 2);
    expect(at({ ...identity, nodes: 4, topologyAtMs: 7500 })).toEqual(['Zaris Churn Lab — Throughput panel · refresh-storm · seed 1 · preset refresh-storm', 'cluster at 7.50 s: 4 nodes / 64 segments']);
    expect(at({ ...identity, nodesNotUp: '1 down', topologyAtMs: 7500 })[1]).toBe('cluster at 7.50 s: 3 nodes (1 down) / 64 segments');
    expect(at({ ...identity, nodes: 4, nodesNotUp: '1 down, 1 joining', topologyAtMs: 9000 })[1]).toBe('cluster at 9.00 s: 4 nodes (1 down, 1 joining) / 64 segments');
    // the caption grows by that line: the export's height follows the line count
    expect(captionLines({ identity: { ...identity, topologyAtMs: 0 }, what: 'x', verdict: 'v', range: null, cursorMs: null })).toHaveLength(5);
  });

  it("a whole-run picture (Compare) marks the node count as the start's when the run's faults change the nodes", () => {
    const head = (id: RunIdentity) => captionLines({ identity: id, what: 'side-by-side charts', verdict: 'v', range: null, cursorMs: null })[0];
    expect(head(wholeRunIdentity(identity, [{ action: 'scaleOut' }]))).toBe('Zaris Churn Lab — side-by-side charts · refresh-storm · seed 1 · 3 nodes at the start / 64 segments · preset refresh-storm');
    expect(head(wholeRunIdentity(identity, [{ action: 'failover' }, { action: 'slow' }]))).toContain('· 3 nodes at the start / 64 segments ·');
    // link faults leave the nodes as they are; so does a run without faults
    expect(wholeRunIdentity(identity, [{ action: 'slow' }, { action: 'partition' }])).toBe(identity);
    expect(wholeRunIdentity(identity, [])).toBe(identity);
  });

  it('says what is unknown for an imported events file', () => {
    const lines = captionLines({ identity: { scenario: 'run.ndjson', seed: null, nodes: null, segments: null, client: null, source: 'events file' }, what: 'timeline', verdict: verdictText(null), range: null, cursorMs: null });
    expect(lines).toEqual([
      'Zaris Churn Lab — timeline · run.ndjson · seed unknown · events file',
      'client configuration: unknown (imported events)',
      'bug toggles: unknown (imported events)',
      'verdict: no operations checked yet',
    ]);
  });

  it('calls an unexplained violation VIOLATED, and a clean run clean', () => {
    expect(verdictText(report(3, false))).toBe('verdict: VIOLATED — attemptBudgetKept 3× VIOLATED');
    expect(verdictText(report(0, false))).toBe('verdict: all 2 invariants kept');
    expect(togglesText(DEFAULT_CLIENT_CONFIG)).toBe('bug toggles: none (the fixed client)');
  });

  it('an A/B export names each side\'s toggles instead of calling both the fixed client', () => {
    const storm = { ...DEFAULT_CLIENT_CONFIG, bugs: { ...DEFAULT_CLIENT_CONFIG.bugs, deadlineReplacesAttempts: true } };
    const toggles = pairTogglesText(DEFAULT_CLIENT_CONFIG, storm);
    expect(toggles).toBe('bug toggles: A none · B ON deadlineReplacesAttempts');
    const lines = captionLines({ identity: { ...identity, client: DEFAULT_CLIENT_CONFIG }, what: 'charts', verdict: 'verdict', range: null, cursorMs: null, toggles });
    expect(lines).toContain(toggles);
    expect(lines.some((l) => l.includes('the fixed client'))).toBe(false);
  });

  it('makes safe, descriptive file names', () => {
    expect(exportFileName(identity, 'Timeline', 'png', { t0: 4500, t1: 10_500.4 })).toBe('zaris-refresh-storm-seed1-timeline-4500-10500ms.png');
    expect(exportFileName({ scenario: 'my run/../x', seed: null }, 'Map refresh coalescing panel', 'svg')).toBe('zaris-my-run-x-map-refresh-coalescing-panel.svg');
  });

  it('sizes the export as the plot plus the caption (and legend row)', () => {
    expect(captionHeight(5)).toBe(CAPTION_PAD * 2 + 5 * CAPTION_LINE_H);
    expect(captionHeight(5, 3)).toBeGreaterThan(captionHeight(5));
    expect(exportSize(1200, 460, 5, 4)).toEqual({ width: 1200, height: 460 + captionHeight(5, 4), captionY: 460 });
  });
});

describe('timeline export', () => {
  const rec = new TimelineRecorder();
  for (const e of retriedOp()) rec.emit(e);
  const options = { viewport: { t0: 0, t1: 1000 }, mode: 'op' as const, filter: 'all' as const, laneOffset: 0, width: 900, height: 260, cursorMs: 300, selectedOp: 1, hoverOp: null };

  it('lists the outcomes on screen in the legend', () => {
    const legend = timelineLegend(buildScene(rec, options));
    expect(legend.map((l) => l.label)).toEqual(['Moved', 'Ok', 'waiting for a map refresh', 'backoff (delay)', 'map refresh executed']);
  });

  it('writes a standalone SVG of the plot and its caption', () => {
    const caption = captionLines({ identity, what: 'timeline', verdict: 'verdict: all 4 invariants kept', range: options.viewport, cursorMs: 300 });
    const svg = timelineSvg({ query: rec, retried: null, options, caption });
    const size = exportSize(900, 260, caption.length, 5);
    expect(svg.startsWith(`<svg xmlns="http://www.w3.org/2000/svg" width="900" height="${size.height}"`)).toBe(true);
    expect(svg).toContain('refresh-storm · seed 1');
    expect(svg).toContain('bug toggles ON: deadlineReplacesAttempts');
    expect(svg).not.toMatch(/NaN/);
  });
});
