/**
 * Record once, seek anywhere, one story: a long run (the refresh storm over
 * 60 s, 1.3 M events) is recorded once; a backward seek shows at once what a
 * page opened at that time shows (every panel, the timeline, the store), and
 * inside the storm the header's verdict at the cursor agrees with the op
 * story (operations in flight beyond their attempt budget), whose refresh
 * numbers are the refresh lane's. Screenshots at 1280 and 1920 px.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { findPreset } from '../src/core/sim/presets';
import { useReplayPages } from './support/replayFixture';
import { capturePage } from './support/capture';

const ARTEFACTS = join(process.cwd(), 'test-results', 'e2e');

/** the scrubber moved to `ms` as a user's input would; resolves when the replay store holds the frame */
async function seekTo(page: Page, ms: number): Promise<number> {
  return page.evaluate(async (target) => {
    const input = document.querySelector('[data-view=replay] [data-testid=replay-scrubber]') as HTMLInputElement;
    const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set;
    const lab = (window as unknown as { __zarisLab: { replayStore: { getState(): { snapshot: { version: number } }; subscribe(fn: (s: { snapshot: { version: number } }) => void): () => void } } }).__zarisLab;
    const v0 = lab.replayStore.getState().snapshot.version;
    const t0 = performance.now();
    setter?.call(input, String(target));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise<void>((res) => {
      const un = lab.replayStore.subscribe((s) => {
        if (s.snapshot.version !== v0) {
          un();
          res();
        }
      });
    });
    return performance.now() - t0;
  }, ms);
}

/** what the replay store holds (the figures every panel draws from) */
async function storeState(page: Page) {
  return page.evaluate(() => {
    const lab = (window as unknown as { __zarisLab: { replayStore: { getState(): { snapshot: { totals: unknown; parkedNow: unknown; invariants: unknown; events: { seq: number }[]; window: { firstBucket: number; length: number } } } } } }).__zarisLab;
    const s = lab.replayStore.getState().snapshot;
    return { totals: s.totals, parkedNow: s.parkedNow, invariants: s.invariants, lastEvent: s.events.at(-1)?.seq ?? null, window: [s.window.firstBucket, s.window.length] };
  });
}

describe('replay: record once, seek anywhere, one story', () => {
  const { open } = useReplayPages(ARTEFACTS);

  it('a backward seek on a long recorded run: the cursor and every panel at the new time, as a page opened there shows them', async () => {
    const storm = findPreset('refresh-storm');
    const file = join(ARTEFACTS, 'storm-60s.json');
    writeFileSync(file, JSON.stringify({ ...(storm?.input as object), name: 'storm-60s', durationMs: 60_000 }));
    const p = await open('?preset=steady&view=replay');
    await p.waitReplayReady();
    await p.importFile(file);
    await p.page.waitForFunction(() => document.querySelector('[data-view=replay] [data-testid=identity-scenario]')?.textContent === 'storm-60s', null, { timeout: 180_000 });
    await p.waitReplayReady(300_000);
    const held = await p.page.getByTestId('replay-memory').getAttribute('data-memory');
    expect(JSON.parse(held ?? '{}').events).toBeGreaterThan(1_000_000);

    await seekTo(p.page, 45_000);
    await p.settle();
    const ahead = await storeState(p.page);
    const back = await seekTo(p.page, 12_000);
    await p.settle();
    expect(await p.cursorMs()).toBe(12_000);
    const st = await storeState(p.page);
    expect((st.totals as { lastT: number }).lastT).toBeLessThanOrEqual(12_000);
    expect((st.totals as { lastT: number }).lastT).toBeGreaterThan(11_900);
    expect(st).not.toEqual(ahead);
    expect((await p.timeline()).cursorMs).toBe(12_000);
    // the header's verdict is read at the same time as the panels
    expect(await p.page.getByTestId('replay-verdict-cursor').innerText()).toContain('at the cursor (12.00 s)');
    const panels = await p.panelFingerprints();
    const tl = await p.timeline();
    console.log(`[e2e] backward seek 45 s → 12 s on a 60 s storm: ${back.toFixed(0)} ms from the input event to the store`);

    // a page opened at 12 s (its URL is the first page's, cursor included) shows exactly the same
    expect(new URL(p.url).searchParams.get('cursor')).toBe('12000');
    const q = await open(new URL(p.url).search);
    await q.waitReplayReady(300_000);
    expect(await q.cursorMs()).toBe(12_000);
    expect(await storeState(q.page)).toEqual(st);
    expect(await q.panelFingerprints()).toEqual(panels);
    expect(await q.timeline()).toEqual(tl);
  }, 900_000);

  it('inside the storm the header verdict at the cursor agrees with the op story, in the refresh lane’s numbers', async () => {
    for (const width of [1280, 1920]) {
      const p = await open('?preset=refresh-storm&view=replay&cursor=7500', { width, height: 2600 });
      await p.waitReplayReady();
      expect(await p.cursorMs()).toBe(7500);
      const atCursor = p.page.getByTestId('replay-verdict-cursor');
      expect(await atCursor.getAttribute('data-tone')).toBe('expected');
      expect(await atCursor.innerText()).toMatch(/at the cursor \(7\.50 s\)[\s\S]*explained by a bug toggle: [\d,]+ operations beyond their attempt budget \([\d,]+ of them in flight\)/);
      const whole = p.page.getByTestId('replay-verdict-run');
      expect(await whole.getAttribute('data-tone')).toBe('expected');
      expect(await whole.innerText()).toMatch(/whole run[\s\S]*explained by a bug toggle: [\d,]+ operations beyond their attempt budget/);
      // the invariants panel reads the same report as the header
      expect(await p.page.locator('[data-view=replay] [data-panel=invariants]').innerText()).toMatch(/made more attempts than their budget, [\d,]+ of them still in flight at the cursor/);

      // the first retried lanes are the dead segment's operations: open stories until one is in flight at the cursor
      const canvas = p.page.locator('[data-view=replay] [data-testid=timeline-canvas]');
      const box = await canvas.boundingBox();
      if (box === null) throw new Error('no timeline');
      let story = '';
      for (let row = 0; row < 12 && !/in flight at the cursor/.test(story); row++) {
        await p.page.mouse.click(box.x + 30, box.y + 72 + row * 18 + 9);
        const s = p.page.getByTestId('op-story');
        if ((await s.count()) > 0) story = await s.innerText();
      }
      expect(story).toMatch(/in flight at the cursor/);
      expect(story).not.toMatch(/did not finish|still in flight when the recording ended/);
      // over its budget at the cursor, as the header says
      const made = /attempt budget\s*(\d+)\s*·\s*(\d+) made by the cursor/.exec(story);
      expect(made, story).not.toBeNull();
      expect(Number(made?.[2])).toBeGreaterThan(Number(made?.[1]));
      // refresh numbers are the refresh lane's: at most the refreshes executed by the cursor
      const executed = await p.page.evaluate(() => (window as unknown as { __zarisLab: { replayStore: { getState(): { snapshot: { totals: { refreshExecuted: number } } } } } }).__zarisLab.replayStore.getState().snapshot.totals.refreshExecuted);
      const nos = [...story.matchAll(/refresh #(\d+)/g)].map((m) => Number(m[1]));
      expect(nos.length).toBeGreaterThan(0);
      for (const n of nos) expect(n).toBeLessThanOrEqual(executed);
      expect(executed).toBeLessThanOrEqual(10);
      await capturePage(p.page, join(ARTEFACTS, `replay-storm-7.5s-${width}.png`), false);
    }
  }, 300_000);
});
