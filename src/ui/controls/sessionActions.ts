/**
 * What the controls do, framework-free: validate, then call the session
 * (PlaygroundControls) and record the outcome in the store. Refused input
 * never reaches the session, so a running session is not disturbed.
 */
import type { BugToggles } from '../../core/client/config';
import { faultSpecSchema, type FaultCommand } from '../../core/cluster/faults';
import { findPreset } from '../../core/sim/presets';
import { loadScenario, type Scenario } from '../../core/sim/scenario';
import { InputError, issuesOf } from '../../core/validation';
import type { PlaygroundControls } from '../bridge/types';
import type { DashboardStore } from '../store/dashboardStore';
import { describeScenarioChange, keepBugToggles } from './scenarioChange';
import { parseClientForm, parseWorkloadForm, withBug, type ClientFormValues, type WorkloadFormValues } from './formModel';

export interface SessionActions {
  start(): Promise<void>;
  pause(): Promise<void>;
  /** true when applied; false when refused (issues are in the store) */
  applyClient(values: ClientFormValues): Promise<boolean>;
  setBug(bug: keyof BugToggles, on: boolean): Promise<void>;
  applyWorkload(values: WorkloadFormValues): Promise<boolean>;
  fault(command: FaultCommand): Promise<boolean>;
  /** starts a new session from a preset (keeps running if it was) */
  loadPreset(id: string): Promise<void>;
  /** starts a new session from a scenario */
  loadScenario(scenario: Scenario, presetId: string): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function createSessionActions(controls: PlaygroundControls, store: DashboardStore): SessionActions {
  const s = () => store.getState();
  /** runs a session call; a rejection is shown, never thrown into React */
  const call = async (what: string, fn: () => Promise<void>): Promise<boolean> => {
    s().setBusy(true);
    try {
      await fn();
      s().reportSessionError(null);
      return true;
    } catch (e) {
      s().reportSessionError(`${what} failed: ${message(e)}`);
      return false;
    } finally {
      s().setBusy(false);
    }
  };

  /** Start or Pause; the store notes the session's own time of it (where it keeps one) for the charts' pause spans */
  const setWorkloadRunning = async (running: boolean): Promise<void> => {
    let t: number | void = undefined;
    const done = await call(running ? 'start' : 'pause', async () => {
      t = await (running ? controls.start() : controls.pause());
    });
    if (!done) return;
    s().setRunning(running);
    s().noteWorkload(running, typeof t === 'number' ? t : undefined);
  };

  const actions: SessionActions = {
    start: () => setWorkloadRunning(true),
    pause: () => setWorkloadRunning(false),
    applyClient: async (values) => {
      const r = parseClientForm(values, s().clientConfig);
      if (!r.ok) {
        s().setFormErrors('client', r.issues);
        return false;
      }
      const ok = await call('configure client', () => controls.configureClient(r.value));
      if (ok) s().applyClientConfig(r.value);
      return ok;
    },
    setBug: async (bug, on) => {
      const config = withBug(s().clientConfig, bug, on);
      if (await call('bug toggle', () => controls.configureClient(config))) s().applyClientConfig(config);
    },
    applyWorkload: async (values) => {
      const r = parseWorkloadForm(values, s().workload);
      if (!r.ok) {
        s().setFormErrors('workload', r.issues);
        return false;
      }
      const ok = await call('set workload', () => controls.setWorkload(r.value));
      if (ok) s().applyWorkload(r.value);
      return ok;
    },
    fault: async (command) => {
      const parsed = faultSpecSchema.safeParse({ atMs: 0, ...command });
      if (!parsed.success) {
        s().setFormErrors('fault', issuesOf(parsed.error));
        return false;
      }
      s().setFormErrors('fault', []);
      return call(command.action, () => controls.fault(command));
    },
    loadPreset: async (id) => {
      const preset = findPreset(id);
      if (preset === undefined) {
        s().setFormErrors('scenario', [{ path: 'preset', message: `unknown preset "${id}"` }]);
        return;
      }
      let scenario: Scenario;
      try {
        scenario = loadScenario(preset.input, `preset ${id}`);
      } catch (e) {
        s().setFormErrors('scenario', e instanceof InputError ? e.issues : [{ path: 'preset', message: message(e) }]);
        return;
      }
      await actions.loadScenario(scenario, id);
    },
    loadScenario: async (picked, presetId) => {
      const wasRunning = s().running;
      const before = { client: s().clientConfig, workload: s().workload };
      const scenario = keepBugToggles(picked, before.client.bugs);
      s().beginSession(scenario, presetId);
      s().setSessionNotice(describeScenarioChange(before, scenario, findPreset(presetId)?.label ?? scenario.name));
      const ok = await call('load scenario', async () => {
        await controls.loadScenario(scenario);
        if (wasRunning) await controls.start();
      });
      if (!ok) s().setRunning(false);
    },
  };
  return actions;
}
