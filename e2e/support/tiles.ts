/**
 * The headline tiles the store implies, from the product's own selectors and
 * `headlineKpis` (what KpiStrip renders): the tests compare them with the DOM.
 */
import { expect } from 'vitest';
import { selectDebounceCeiling, selectHeadline, selectPoolSize } from '../../src/ui/store/selectors';
import { headlineKpis, type Kpi } from '../../src/ui/KpiStrip';
import type { DashboardPage } from '../pages/dashboard.page';
import { toSnapshot, type StoreState } from './storeProbe';

/** tiles whose value the store probe cannot reproduce (stale segments needs the full cluster and client maps) */
const NOT_COMPARED = new Set(['stale segments']);

export function expectedTiles(s: StoreState): Kpi[] {
  const c = s.clientConfig;
  return headlineKpis(selectHeadline(toSnapshot(s), s.running), {
    ceiling: selectDebounceCeiling(c.refreshDebounceMs, c.bugs.noRefreshDebounce),
    stale: 0,
    poolSize: selectPoolSize(s.workload),
  }).filter((k) => !NOT_COMPARED.has(k.label));
}

export interface TilesRead {
  readonly store: StoreState;
  readonly dom: { label: string; value: string; caption: string; tone: string }[];
  readonly expected: Kpi[];
  readonly parked: { inFlight: number; parts: Record<string, string> };
}

/**
 * Reads the store and the tiles until the tiles and the parked panel have drawn the store's
 * published snapshot (their data-version), then requires the DOM to show exactly what that
 * snapshot implies, and the parked panel to agree with the in-flight tile.
 */
export async function tilesMatchingStore(d: DashboardPage, timeoutMs = 15_000): Promise<TilesRead> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const store = await d.storeState();
    const [shown, parked] = await Promise.all([d.tiles(), d.parkedNow()]);
    const dom = shown.tiles;
    const expected = expectedTiles(store);
    const last: TilesRead = { store, dom, expected, parked };
    // the same snapshot on both sides (a publish between the reads, or a frame not drawn yet: read again)
    const same = shown.version === store.snapshotVersion && shown.parkedVersion === store.snapshotVersion;
    const tileOf = (k: Kpi) => dom.find((t) => t.label === k.label);
    const match = expected.every((k) => {
      const t = tileOf(k);
      return t !== undefined && t.value === k.value && t.caption === k.caption && t.tone === (k.tone ?? '');
    });
    const inFlight = store.parkedNow.attempt + store.parkedNow.refreshWait + store.parkedNow.backoff;
    if (same) {
      expect(dom.map((t) => t.label).filter((l) => expected.some((k) => k.label === l)), 'tiles in order').toEqual(expected.map((k) => k.label));
      if (!match || parked.inFlight !== inFlight) throw new Error(`the tiles do not show the store's snapshot ${store.snapshotVersion}: ${JSON.stringify({ dom, expected, parked, parkedNow: store.parkedNow })}`);
      return last;
    }
    if (Date.now() > until) throw new Error(`the tiles never drew the store's snapshot (store ${store.snapshotVersion}, tiles ${shown.version}, parked panel ${shown.parkedVersion})`);
    await d.page.waitForTimeout(100);
  }
}
