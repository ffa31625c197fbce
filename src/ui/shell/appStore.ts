/**
 * The app shell's state: which view is open, and per view the URL state it
 * shows (scenario, seed, client overrides, cursor, A/B pair). The address
 * bar always encodes the open view's state, so a link reproduces it.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { DEFAULT_URL_STATE, VIEWS, type UrlState, type View } from '../urlState';
import type { ReadUrl, UrlProblem } from './appUrl';

export interface AppState {
  readonly view: View;
  readonly parts: Readonly<Record<View, UrlState>>;
  /** where an inline scenario came from ("file x.json", "live recording"; null: the link) */
  readonly origins: Readonly<Record<View, string | null>>;
  /** the URL's problem, shown until dismissed */
  readonly urlError: UrlProblem | null;
  /** views opened so far (kept mounted) */
  readonly visited: readonly View[];
  setView(view: View): void;
  /** merges into one view's state (undefined fields are removed) */
  setPart(view: View, part: Partial<UrlState>, origin?: string | null): void;
  dismissUrlError(): void;
}

export type AppStore = StoreApi<AppState>;

const DEFAULT_SCENARIO: Readonly<Record<View, UrlState['scenario']>> = { live: { preset: 'steady' }, replay: DEFAULT_URL_STATE.scenario, compare: DEFAULT_URL_STATE.scenario };

/** each view's initial state: the URL's for its view; the others take the URL's scenario (if it named one) */
export function initialParts(read: Pick<ReadUrl, 'state' | 'namedScenario'>): Record<View, UrlState> {
  const s = read.state;
  const of = (v: View): UrlState => {
    if (v === s.view) return { ...s, ...(read.namedScenario ? {} : { scenario: DEFAULT_SCENARIO[v] }) };
    return { scenario: read.namedScenario ? s.scenario : DEFAULT_SCENARIO[v], client: s.client, view: v, ...(s.seed !== undefined ? { seed: s.seed } : {}) };
  };
  return Object.fromEntries(VIEWS.map((v) => [v, of(v)])) as Record<View, UrlState>;
}

const clean = (s: UrlState): UrlState => Object.fromEntries(Object.entries(s).filter(([, v]) => v !== undefined)) as unknown as UrlState;

export function createAppStore(read: ReadUrl): AppStore {
  return createStore<AppState>()((set) => ({
    view: read.state.view,
    parts: initialParts(read),
    origins: { live: null, replay: null, compare: null },
    urlError: read.error,
    visited: [read.state.view],
    setView: (view) => set((s) => ({ view, visited: s.visited.includes(view) ? s.visited : [...s.visited, view] })),
    setPart: (view, part, origin) =>
      set((s) => ({
        parts: { ...s.parts, [view]: clean({ ...s.parts[view], ...part, view }) },
        ...(origin !== undefined ? { origins: { ...s.origins, [view]: origin } } : {}),
      })),
    dismissUrlError: () => set({ urlError: null }),
  }));
}
