/**
 * The live playground, created on first use (a link to the replay or the
 * compare view starts no workers): the session from `sessions.ts`, wrapped
 * so it records itself as a scenario, pushing into the live store; the
 * live view's URL state follows the store (preset, seed, client changes).
 */
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { RealEngineSession } from '../bridge/realEngineSession';
import type { PlaygroundControls, SessionListener } from '../bridge/types';
import { recordingControls, recordingListener } from '../replay/recordingControls';
import { SessionRecording } from '../replay/sessionRecording';
import { clientOverridesDiff, scenarioFromUrl } from '../replay/urlScenario';
import { sessionFor } from '../sessions';
import { createStoreListener, type DashboardStore } from '../store/dashboardStore';
import type { AppStore } from './appStore';
import { createEngineChoiceStore, probeRealEngine, type EngineChoiceStore, type EngineKind } from './engineChoice';

export interface LiveHandle {
  readonly store: DashboardStore;
  /** the session's recording (fault presses, config changes) */
  readonly recording: SessionRecording;
  /** the session, started on the first call (a new object after an engine switch) */
  controls(): PlaygroundControls;
  /** which engine runs the Live tab, and whether the real one is available here */
  readonly engine: EngineChoiceStore;
  /** ends the current session and starts the same scenario on the other engine */
  setEngine(kind: EngineKind): void;
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
  const engine = createEngineChoiceStore();
  void probeRealEngine().then((real) => engine.setState({ real }));
  /** the scenario the session runs now (a preset or a loaded file) */
  let current = first;

  /** a session of the chosen engine for `scenario`, recording itself */
  const open = (scenario: Scenario): PlaygroundControls => {
    const listener: SessionListener = recordingListener(createStoreListener(store), recording);
    const { kind, real } = engine.getState();
    const session =
      kind === 'redis' && real.state === 'available'
        ? new RealEngineSession(listener, scenario, { token: real.token, status: real.status, onPhase: (phase, detail) => engine.setState({ phase, ...(detail !== '' ? { detail } : {}) }) })
        : sessionFor(search)(listener, scenario);
    const wrapped = recordingControls(session, recording);
    // the scenario a later switch re-runs follows what the controls load
    return {
      ...wrapped,
      loadScenario: async (sc) => {
        current = { scenario: sc, presetId: store.getState().presetId };
        await wrapped.loadScenario(sc);
      },
    };
  };

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
        controls = open(first.scenario);
        unsubscribe = follow();
      }
      return controls;
    },
    engine,
    setEngine: (kind) => {
      if (engine.getState().kind === kind) return;
      controls?.dispose();
      engine.setState({ kind, phase: kind === 'redis' ? 'idle' : null, detail: '' });
      const s = store.getState();
      s.setRunning(false);
      s.beginSession(current.scenario, current.presetId);
      recording.begin(current.scenario);
      controls = open(current.scenario);
      engine.setState((e) => ({ version: e.version + 1 }));
    },
    dispose: () => {
      unsubscribe?.();
      controls?.dispose();
    },
  };
}
