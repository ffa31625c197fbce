/**
 * The live playground, created on first use (a link to the replay or the
 * compare view starts no workers): the session from `sessions.ts`, wrapped
 * so it records itself as a scenario, pushing into the live store; the
 * live view's URL state follows the store (preset, seed, client changes).
 */
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import type { PlaygroundControls } from '../bridge/types';
import { recordingControls, recordingListener } from '../replay/recordingControls';
import { SessionRecording } from '../replay/sessionRecording';
import { clientOverridesDiff, scenarioFromUrl } from '../replay/urlScenario';
import { sessionFor } from '../sessions';
import { createStoreListener, type DashboardStore } from '../store/dashboardStore';
import type { AppStore } from './appStore';

export interface LiveHandle {
  readonly store: DashboardStore;
  /** the session's recording (fault presses, config changes) */
  readonly recording: SessionRecording;
  /** the session, started on the first call */
  controls(): PlaygroundControls;
  dispose(): void;
}

function steady(): Scenario {
  const p = findPreset('steady');
  if (p === undefined) throw new Error('the steady preset is missing');
  return loadScenario(p.input, 'preset steady');
}

/** the live view's scenario from its URL state (steady when the link's scenario does not load) */
function initialScenario(app: AppStore): { scenario: Scenario; presetId: string } {
  const part = app.getState().parts.live;
  try {
    return { scenario: scenarioFromUrl(part), presetId: 'preset' in part.scenario ? part.scenario.preset : '' };
  } catch (e) {
    app.setState({ urlError: { summary: "The link's scenario could not be loaded for the live view: running the steady preset instead.", issues: [{ path: 'scenario', message: e instanceof Error ? e.message : String(e) }] } });
    return { scenario: steady(), presetId: 'steady' };
  }
}

export function createLiveHandle(store: DashboardStore, app: AppStore, search: string): LiveHandle {
  const first = initialScenario(app);
  const recording = new SessionRecording(first.scenario);
  let controls: PlaygroundControls | null = null;
  let unsubscribe: (() => void) | null = null;

  const follow = () =>
    store.subscribe((s, prev) => {
      if (s.presetId === prev.presetId && s.clientConfig === prev.clientConfig && s.session === prev.session) return;
      if (s.presetId === '') return;
      let base: Scenario;
      try {
        base = scenarioFromUrl({ scenario: { preset: s.presetId }, client: {} });
      } catch {
        return;
      }
      app.getState().setPart('live', { scenario: { preset: s.presetId }, seed: s.session.seed !== base.seed ? s.session.seed : undefined, client: clientOverridesDiff(base.client, s.clientConfig) });
    });

  return {
    store,
    recording,
    controls: () => {
      if (controls === null) {
        store.getState().beginSession(first.scenario, first.presetId);
        const session = sessionFor(search)(recordingListener(createStoreListener(store), recording), first.scenario);
        controls = recordingControls(session, recording);
        unsubscribe = follow();
      }
      return controls;
    },
    dispose: () => {
      unsubscribe?.();
      controls?.dispose();
    },
  };
}
