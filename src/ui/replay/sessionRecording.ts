/**
 * Records a live session as an editable scenario (SPEC §10 format): the
 * scenario it started from, every fault that fired (button presses and the
 * scenario's own schedule) at the session time its `fault` event carries,
 * and every configuration change, pause and resume as the scenario's
 * configuration schedule (`changes`). "Save as scenario" writes
 * `toScenarioInput()`; the replay runs it in the deterministic engine.
 * Pure: fed by the recording controls / listener, readable in tests.
 */
import { clientConfigDiff, type ClientConfig } from '../../core/client/config';
import type { FaultCommand, FaultSpec } from '../../core/cluster/faults';
import { toScenarioInput, type ConfigChange, type Scenario, type ScenarioInput } from '../../core/sim/scenario';
import { workloadDiff, type WorkloadConfig } from '../../core/sim/workloadConfig';
import { ignoredBecause, type FaultEvent } from '../../core/telemetry/events';
import { clientOverridesDiff } from './urlScenario';
import { LATE_START_MS } from '../store/snapshot';

/** a configuration change during the session, as the recording bar lists it */
export interface RecordedChange {
  /** ms since the session started */
  readonly atMs: number;
  /** `started`: the first Start, later than the session's start (no control was changed; the recording pauses until then) */
  readonly what: 'client' | 'workload' | 'paused' | 'resumed' | 'started';
  readonly summary: string;
}

const DESCRIPTION_MAX = 2000;
const sec = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;

/** "maxAttempts 3 → 5, bug toggles on: deadlineReplacesAttempts" */
export function describeClientChange(from: ClientConfig, to: ClientConfig): string {
  const d = clientOverridesDiff(from, to);
  const parts: string[] = [];
  for (const [k, v] of Object.entries(d)) {
    if (k === 'bugs') parts.push(`bug toggles on: ${(v as string[]).length === 0 ? 'none' : (v as string[]).join(', ')}`);
    else parts.push(`${k} ${String(from[k as keyof ClientConfig] ?? 'infinite')} → ${String(v)}`);
  }
  return parts.length === 0 ? 'no change' : parts.join(', ');
}

export class SessionRecording {
  private scenario!: Scenario;
  private faults: FaultSpec[] = [];
  /** pressed, not yet seen as a `fault` event */
  private pending: FaultCommand[] = [];
  /** the scenario's own schedule, not yet seen */
  private scheduled: FaultSpec[] = [];
  private client!: ClientConfig;
  private workload!: WorkloadConfig;
  /** the configuration schedule, in the scenario's format */
  private schedule: ConfigChange[] = [];
  private changeLog: RecordedChange[] = [];
  private startedOnce = false;
  private running = false;
  /** newest session time seen, ms */
  lastT = 0;

  constructor(scenario: Scenario) {
    this.begin(scenario);
  }

  /** a new session from `scenario`: forget the recording */
  begin(scenario: Scenario): void {
    this.scenario = scenario;
    this.faults = [];
    this.pending = [];
    this.scheduled = [...scenario.faults];
    this.client = scenario.client;
    this.workload = scenario.workload;
    this.schedule = [];
    this.changeLog = [];
    this.startedOnce = false;
    this.running = false;
    this.lastT = 0;
  }

  observe(t: number): void {
    if (t > this.lastT) this.lastT = t;
  }

  /** a fault button was pressed (its effect arrives later as a `fault` event) */
  pressed(cmd: FaultCommand): void {
    this.pending.push(cmd);
  }

  /** the press failed: it will not fire */
  unpressed(cmd: FaultCommand): void {
    const i = this.pending.indexOf(cmd);
    if (i >= 0) this.pending.splice(i, 1);
  }

  /** a `fault` event from the stream: the moment it really fired */
  faultSeen(e: FaultEvent): void {
    this.observe(e.t);
    const p = this.pending.findIndex((c) => c.action === e.action && (c.node === undefined || c.node === e.node));
    // a press the control plane ignored (the node was already up, …) did nothing: the scenario leaves it out (a scenario refuses such a fault)
    if (ignoredBecause(e) !== null) {
      if (p >= 0) this.pending.splice(p, 1);
      return;
    }
    const s = p >= 0 ? -1 : this.scheduled.findIndex((f) => f.action === e.action && (f.node === undefined || f.node === e.node));
    let spec: FaultSpec;
    if (p >= 0) {
      const cmd = this.pending.splice(p, 1)[0] as FaultCommand;
      spec = { ...cmd, atMs: Math.round(e.t) };
    } else if (s >= 0) {
      // at the moment it really fired: a preset's faults count from the first Start and stand still while paused
      spec = { ...(this.scheduled.splice(s, 1)[0] as FaultSpec), atMs: Math.round(e.t) };
    } else {
      spec = { atMs: Math.round(e.t), action: e.action };
    }
    // a scale-out names no node (it adds the next one); everything else is pinned to the node it hit
    const { node: _node, ...rest } = spec;
    this.faults.push(e.action === 'scaleOut' ? rest : { ...rest, node: e.node });
  }

  configured(client: ClientConfig, t: number): void {
    const summary = describeClientChange(this.client, client);
    const diff = clientConfigDiff(this.client, client);
    this.client = client;
    if (Object.keys(diff).length === 0) return;
    this.scheduleChange({ atMs: Math.round(t), client: diff });
    this.changeLog.push({ atMs: t, what: 'client', summary });
  }

  workloadSet(workload: WorkloadConfig, t: number): void {
    const diff = workloadDiff(this.workload, workload);
    this.workload = workload;
    if (Object.keys(diff).length === 0) return;
    this.scheduleChange({ atMs: Math.round(t), workload: diff });
    this.changeLog.push({ atMs: t, what: 'workload', summary: `workload ${Object.entries(diff).map(([k, v]) => `${k} ${typeof v === 'object' ? JSON.stringify(v) : String(v)}`).join(', ')}` });
  }

  /** the workload (re)started at session time `t` */
  started(t: number): void {
    if (this.running) return;
    this.running = true;
    const first = !this.startedOnce;
    if (first) {
      this.startedOnce = true;
      // the scenario's workload starts at 0; a later first Start is a pause until then
      if (t <= LATE_START_MS) return;
      this.scheduleChange({ atMs: 0, paused: true });
    }
    this.scheduleChange({ atMs: Math.round(t), paused: false });
    this.changeLog.push(first ? { atMs: t, what: 'started', summary: 'workload started' } : { atMs: t, what: 'resumed', summary: 'workload resumed' });
  }

  /** the workload paused at session time `t` */
  pausedAt(t: number): void {
    if (!this.running) return;
    this.running = false;
    this.scheduleChange({ atMs: Math.round(t), paused: true });
    this.changeLog.push({ atMs: t, what: 'paused', summary: 'workload paused' });
  }

  /**
   * Adds a change to the schedule; two in the same (rounded) ms become one, the later values
   * winning, as they did in the session (a scenario refuses a setting given twice at one instant).
   */
  private scheduleChange(c: ConfigChange): void {
    const last = this.schedule[this.schedule.length - 1];
    if (last === undefined || last.atMs !== c.atMs) {
      this.schedule.push(c);
      return;
    }
    const client = last.client !== undefined || c.client !== undefined ? { ...last.client, ...c.client, ...(last.client?.bugs !== undefined || c.client?.bugs !== undefined ? { bugs: { ...last.client?.bugs, ...c.client?.bugs } } : {}) } : undefined;
    const workload = last.workload !== undefined || c.workload !== undefined ? { ...last.workload, ...c.workload, ...(last.workload?.mix !== undefined || c.workload?.mix !== undefined ? { mix: { ...last.workload?.mix, ...c.workload?.mix } } : {}) } : undefined;
    const paused = c.paused ?? last.paused;
    this.schedule[this.schedule.length - 1] = { atMs: c.atMs, ...(client !== undefined ? { client } : {}), ...(workload !== undefined ? { workload } : {}), ...(paused !== undefined ? { paused } : {}) };
  }

  get recordedFaults(): readonly FaultSpec[] {
    return this.faults;
  }

  get changes(): readonly RecordedChange[] {
    return this.changeLog;
  }

  /** the session as a scenario file: its starting configuration, every fault and every change at the time it happened */
  toScenarioInput(): ScenarioInput {
    const faults = [...this.faults].sort((a, b) => a.atMs - b.atMs);
    const changes = [...this.schedule].sort((a, b) => a.atMs - b.atMs);
    const lastFault = faults.length > 0 ? (faults[faults.length - 1] as FaultSpec).atMs : 0;
    const lastChange = changes.length > 0 ? (changes[changes.length - 1] as ConfigChange).atMs : 0;
    const durationMs = Math.max(1000, Math.ceil((Math.max(this.lastT, lastFault + 2000, lastChange + 1000) + 1) / 1000) * 1000);
    const base = toScenarioInput({ ...this.scenario, faults, changes, durationMs });
    const pressed = faults.map((f) => `${f.action}${f.node !== undefined ? ` n${f.node}` : ''} at ${sec(f.atMs)}`).join(', ');
    const later = this.changeLog.map((c) => `${sec(c.atMs)}: ${c.summary}`).join('; ');
    let description = `Recorded from a live session of "${this.scenario.name}" (${faults.length} fault${faults.length === 1 ? '' : 's'}${pressed ? `: ${pressed}` : ''}).`;
    if (later) description += ` Configuration changes (in "changes"): ${later}.`;
    return {
      ...base,
      name: `${this.scenario.name}-recorded`.slice(0, 200),
      description: description.length > DESCRIPTION_MAX ? `${description.slice(0, DESCRIPTION_MAX - 1)}…` : description,
    };
  }
}
