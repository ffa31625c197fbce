import { DEFAULT_CLIENT_CONFIG, type ClientConfig } from '../../core/client/config';
import { DEFAULT_CLUSTER_CONFIG } from '../../core/cluster/clusterConfig';
import { bugsOnAtAnyTime, type Scenario } from '../../core/sim/scenario';
import { DEFAULT_WORKLOAD, type WorkloadConfig } from '../../core/sim/workloadConfig';
import type { InputIssue } from '../../core/validation';
import type { SliceCreator } from './storeTypes';

/** Which scenario the charts belong to (shown in the header). */
export interface SessionIdentity {
  /** increases with every new session */
  readonly id: number;
  readonly scenario: string;
  readonly description: string;
  readonly seed: number;
  readonly nodes: number;
  readonly segments: number;
}

/** forms that validate input */
export const FORMS = ['client', 'workload', 'scenario', 'fault'] as const;
export type FormName = (typeof FORMS)[number];

/** What the controls applied and what they refused. */
export interface ControlsSlice {
  /** the workload is running */
  running: boolean;
  /** Start was pressed in this session (the clock and the recording begin then) */
  everStarted: boolean;
  /** what the last scenario change did to the settings (null = nothing to say, or dismissed) */
  sessionNotice: string | null;
  /** client configuration in effect */
  clientConfig: ClientConfig;
  /** workload in effect */
  workload: WorkloadConfig;
  /** preset the session was loaded from ('' = none) */
  presetId: string;
  session: SessionIdentity;
  /** refused input per form (empty = nothing refused) */
  formErrors: Readonly<Record<FormName, readonly InputIssue[]>>;
  /** the last error the session reported (null = none) */
  sessionError: string | null;
  /** a control call is in progress */
  busy: boolean;
  setRunning(running: boolean): void;
  setBusy(busy: boolean): void;
  applyClientConfig(config: ClientConfig): void;
  applyWorkload(workload: WorkloadConfig): void;
  setFormErrors(form: FormName, issues: readonly InputIssue[]): void;
  reportSessionError(message: string | null): void;
  setSessionNotice(notice: string | null): void;
  /** a new session: identity, config and workload from the scenario; telemetry and views cleared */
  beginSession(scenario: Scenario, presetId: string): void;
}

const noErrors = (): Record<FormName, readonly InputIssue[]> => ({ client: [], workload: [], scenario: [], fault: [] });

export const createControlsSlice: SliceCreator<ControlsSlice> = (set, get) => ({
  running: false,
  everStarted: false,
  sessionNotice: null,
  clientConfig: DEFAULT_CLIENT_CONFIG,
  workload: DEFAULT_WORKLOAD,
  presetId: '',
  session: { id: 0, scenario: '—', description: '', seed: 0, nodes: DEFAULT_CLUSTER_CONFIG.nodes, segments: DEFAULT_CLUSTER_CONFIG.segments },
  formErrors: noErrors(),
  sessionError: null,
  busy: false,
  setRunning: (running) => set((s) => ({ running, everStarted: s.everStarted || running })),
  setSessionNotice: (sessionNotice) => set({ sessionNotice }),
  setBusy: (busy) => set({ busy }),
  applyClientConfig: (clientConfig) => set((s) => ({ clientConfig, formErrors: { ...s.formErrors, client: [] } })),
  applyWorkload: (workload) => set((s) => ({ workload, formErrors: { ...s.formErrors, workload: [] } })),
  setFormErrors: (form, issues) => set((s) => ({ formErrors: { ...s.formErrors, [form]: issues } })),
  reportSessionError: (sessionError) => set({ sessionError }),
  beginSession: (scenario, presetId) => {
    const s = get();
    s.resetTelemetry();
    s.resetCluster();
    s.resetClient();
    set({
      presetId,
      // a bug toggle that a scheduled change turns on counts for the whole
      // run, so the checker explains what it causes
      clientConfig: scenario.changes.length === 0 ? scenario.client : { ...scenario.client, bugs: bugsOnAtAnyTime(scenario) },
      workload: scenario.workload,
      session: {
        id: s.session.id + 1,
        scenario: scenario.name,
        description: scenario.description,
        seed: scenario.seed,
        nodes: scenario.cluster.nodes,
        segments: scenario.cluster.segments,
      },
      formErrors: noErrors(),
      sessionError: null,
      // a new session's clock starts at its first Start (or at once, when it keeps running)
      everStarted: s.running,
      sessionNotice: null,
    });
  },
});

