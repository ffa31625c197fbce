/**
 * Which session drives the dashboard. The dev SimFeed runs the headless
 * engine on the main thread; the live worker bridge plugs in here with the
 * same (listener, scenario) signature; `sessionFor` picks one from the URL.
 */
import { findPreset } from '../core/sim/presets';
import { loadScenario, type Scenario } from '../core/sim/scenario';
import type { PlaygroundControls, SessionListener } from './bridge/types';
import { LiveSession } from './bridge/liveSession';
import { SimFeed } from './dev/SimFeed';

export type SessionFactory = (listener: SessionListener, scenario: Scenario) => PlaygroundControls;

/** the headless engine on the main thread, paced by real time */
export const simSession: SessionFactory = (listener, scenario) => {
  const feed = new SimFeed(listener);
  void feed.loadScenario(scenario);
  return feed;
};

/** the live playground: node, client and control-plane workers on real time */
export const liveSession: SessionFactory = (listener, scenario) => new LiveSession(listener, scenario);

/** the live workers by default; `?feed=sim` runs the headless engine on the main thread instead (development) */
export function sessionFor(search: string): SessionFactory {
  return new URLSearchParams(search).get('feed') === 'sim' ? simSession : liveSession;
}

/** the preset to open with: `?preset=<id>` or steady (a healthy cluster to break by hand) */
export function initialPreset(search: string): { id: string; scenario: Scenario } {
  const wanted = new URLSearchParams(search).get('preset') ?? 'steady';
  const preset = findPreset(wanted) ?? findPreset('steady');
  if (preset === undefined) throw new Error('the steady preset is missing');
  return { id: preset.id, scenario: loadScenario(preset.input, `preset ${preset.id}`) };
}
