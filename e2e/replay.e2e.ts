/**
 * The design-review views in a real browser: A/B compare of the refresh
 * storm, one replay cursor moving every panel, PNG and NDJSON export with
 * re-import, a shared link reproducing the view, and a bad link degrading
 * gracefully.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pngSize } from './pages/replay.page';
import { useReplayPages } from './support/replayFixture';
import { capturePage } from './support/capture';

const ARTEFACTS = join(process.cwd(), 'test-results', 'e2e');

describe('replay, compare and exports', () => {
  const { open } = useReplayPages(ARTEFACTS);

  it('compares the refresh storm: the bug-on side exceeds the attempt budget, the fixed side does not', async () => {
    const p = await open('?preset=refresh-storm&view=compare');
    await p.waitCompareDone();
    expect(await p.selectedTab()).toBe('Compare');
    // the picker names the scenario only: side A runs it with no bug toggle, so "(bug on)" beside it would mislead
    const picked = await p.compareView.getByRole('combobox', { name: 'Scenario preset' }).evaluate((s: HTMLSelectElement) => s.selectedOptions[0]?.textContent);
    expect(picked).toBe('Refresh storm');
    const max = await p.compareMetric('maxAttemptsPerOp');
    expect(max.a).toBeLessThanOrEqual(3);
    expect(max.b).toBeGreaterThan(3);
    expect(await p.compareInvariant('attemptBudgetKept')).toEqual({ a: 'ok', b: 'expected' });
    // both timelines hold the whole run on one shared time range
    const a = await p.timeline('timeline-a-canvas', p.compareView);
    const b = await p.timeline('timeline-b-canvas', p.compareView);
    expect(a.ops).toBeGreaterThan(1000);
    expect(b.ops).toBeGreaterThan(1000);
    expect([a.t0, a.t1]).toEqual([b.t0, b.t1]);
    await capturePage(p.page, join(ARTEFACTS, 'compare-storm.png'));
  });

  it('scrubbing the replay cursor moves every panel together', async () => {
    const p = await open('?preset=refresh-storm&view=replay');
    await p.waitReplayReady();
    expect(await p.cursorMs()).toBe(16_000);
    const before = await p.panelFingerprints();
    expect(Object.keys(before)).toEqual(['throughput', 'invariants', 'refresh', 'parked', 'retries', 'statuses', 'cluster', 'latency', 'ambiguousWrites', 'events']);
    await p.scrubTo(3 / 16);
    const cursor = await p.cursorMs();
    expect(cursor).toBeGreaterThan(2500);
    expect(cursor).toBeLessThan(3500);
    expect(await p.replayLastT()).toBeLessThanOrEqual(cursor);
    expect((await p.timeline()).cursorMs).toBe(cursor);
    const after = await p.panelFingerprints();
    for (const [id, fp] of Object.entries(after)) {
      const was = before[id];
      expect(fp, `panel ${id} did not move with the cursor`).not.toEqual(was);
      // the time charts draw the cursor where it now is
      if (fp.cursors.length > 0) expect(fp.cursors, `time cursor of ${id}`).not.toEqual(was?.cursors);
    }
    await capturePage(p.page, join(ARTEFACTS, 'replay-scrubbed.png'));
  });

  it('exports the timeline as PNG and the run as NDJSON, and re-importing the file shows the same timeline', async () => {
    const p = await open('?preset=refresh-storm&view=replay');
    await p.waitReplayReady();
    const tl = await p.timeline();
    const png = await p.exportTimelinePng();
    expect(png.name).toMatch(/^zaris-refresh-storm-seed1-timeline-.*\.png$/);
    const size = pngSize(png.bytes);
    expect(size.width).toBe(tl.width * 2);
    expect(size.height).toBeGreaterThan(tl.height * 2);
    expect(png.bytes.length).toBeGreaterThan(20_000);
    writeFileSync(join(ARTEFACTS, 'replay-timeline-export.png'), png.bytes);

    const nd = await p.exportNdjson();
    expect(nd.name).toBe('zaris-refresh-storm-seed1-events.ndjson');
    const lines = nd.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(100_000);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ t: 0, type: 'topology' });

    await p.importFile(nd.path);
    await p.page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=identity-scenario]')?.textContent === 'zaris-refresh-storm-seed1-events.ndjson', null, { timeout: 120_000 });
    await p.waitReplayReady();
    expect(await p.replayError()).toBeNull();
    const again = await p.timeline();
    expect({ ops: again.ops, segments: again.segments, lanes: again.lanes, refreshes: again.refreshes }).toEqual({ ops: tl.ops, segments: tl.segments, lanes: tl.lanes, refreshes: tl.refreshes });
    expect(await p.cursorMs()).toBe(await p.cursorMs());

    // a broken file names the line and keeps the current run
    const bad = join(ARTEFACTS, 'broken.ndjson');
    writeFileSync(bad, '{"t":0,"type":"op.start","op":1,"kind":"get","key":"k","segment":0}\n{"t":1,"type":"attempt.start","op":"x"}\n');
    await p.importFile(bad);
    await p.page.getByTestId('replay-error').waitFor();
    expect(await p.replayError()).toMatch(/broken\.ndjson: line 2: (op|attempt)/);
    expect((await p.identity()).scenario).toBe('zaris-refresh-storm-seed1-events.ndjson');
  });

  it('a shared link opens the same view in a fresh page; a bad link explains itself and falls back', async () => {
    const p = await open('?preset=refresh-storm&seed=2&view=replay');
    await p.waitReplayReady();
    await p.scrubTo(6 / 16);
    const cursor = await p.cursorMs();
    await p.page.waitForFunction((c) => window.location.search.includes(`cursor=${c}`), cursor);
    const link = p.url;
    expect(link).toContain('preset=refresh-storm');
    expect(link).toContain('seed=2');
    expect(link).toContain('view=replay');
    const identity = await p.identity();
    const tl = await p.timeline();

    const fresh = await open(link.slice(link.indexOf('?')));
    await fresh.waitReplayReady();
    expect(await fresh.selectedTab()).toBe('Replay');
    expect(await fresh.identity()).toEqual(identity);
    expect(await fresh.cursorMs()).toBe(cursor);
    const same = await fresh.timeline();
    expect({ ops: same.ops, segments: same.segments, cursorMs: same.cursorMs }).toEqual({ ops: tl.ops, segments: tl.segments, cursorMs: tl.cursorMs });

    const bad = await open('?preset=refresh-storm&view=replay&cursor=soon&bugs=noSuchBug');
    await bad.waitReplayReady();
    const err = await bad.urlError();
    expect(err).toMatch(/cursor\s+must be a time in ms/);
    expect(err).toMatch(/bugs\s+unknown bug toggle/);
    expect((await bad.identity()).scenario).toBe('refresh-storm');
    expect(await bad.cursorMs()).toBe(16_000);
  });
});
