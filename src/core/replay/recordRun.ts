/**
 * Record once: a scenario runs in the engine exactly one time, its events go
 * to an {@link EventTape} and the cluster's and the client's views are kept
 * whenever they change, so any time can be shown later without re-running.
 * Views are taken right after each fault, topology change and executed
 * refresh (a timer at the event's own time, after the timers already due
 * then), and compared every 100 ms for changes no event announces.
 */
import type { WriteAuditReport } from '../sim/applyTracker';
import { clientViewOf, clusterViewOf, type ClientView, type ClusterView } from '../cluster/views';
import type { ClusterMap } from '../domain/clusterMap';
import { AvailabilityWatch } from '../sim/availabilityRule';
import { SimEngine } from '../sim/engine';
import { availabilityCheck, type InvariantCheck } from '../sim/invariants';
import type { Scenario } from '../sim/scenario';
import type { TelemetrySink, ZarisEvent } from '../telemetry/events';
import { EventTape } from './eventTape';
import { upperBound } from './sortedSearch';

/** the cluster's and the client's views at any cursor: a recorded run's, or an imported file's */
export interface RunViews {
  clusterAt(t: number): ClusterView | null;
  clientAt(t: number): ClientView | null;
  /** the engine's ambiguous-write audit at `t` (null where the run has none: an imported file, a live recording) */
  auditAt?(t: number): WriteAuditReport | null;
  /**
   * the availability rule (`sim/availabilityRule.ts`) at `t`, checked against
   * the engine's truth while the run was recorded (absent where the run has
   * no cluster truth: an imported file)
   */
  availabilityAt?(t: number): InvariantCheck | null;
  /** rough bytes held */
  readonly bytes: number;
}

/** virtual ms between audit snapshots while only its counts of audited writes move */
const AUDIT_REFRESH_MS = 1000;

/** the views of a run at the times they changed */
export class ViewTimeline implements RunViews {
  readonly clusterTimes: number[] = [];
  readonly cluster: ClusterView[] = [];
  readonly clientTimes: number[] = [];
  readonly client: ClientView[] = [];
  private lastMap: ClusterMap | null = null;
  /** the ambiguous-write audit, kept when a finding changes (and at least every AUDIT_REFRESH_MS) */
  readonly auditTimes: number[] = [];
  readonly audits: WriteAuditReport[] = [];
  /** the availability rule, watched on the engine's state while recording (set by {@link recordScenario}) */
  availability: AvailabilityWatch | null = null;

  /** the availability rule's row at `t` (Infinity: the whole run) */
  availabilityAt(t: number): InvariantCheck | null {
    return this.availability === null ? null : availabilityCheck(this.availability.violationsAt(t));
  }

  /** keeps the views at `t` if they differ from the last ones kept */
  capture(engine: SimEngine, t: number): void {
    const cv = clusterViewOf(engine.state, t);
    const last = this.cluster[this.cluster.length - 1];
    if (last === undefined || !sameCluster(last, cv)) {
      this.clusterTimes.push(t);
      this.cluster.push(cv);
    }
    const map = engine.client.map;
    if (map !== this.lastMap) {
      const prev = this.client[this.client.length - 1];
      this.lastMap = map;
      if (prev === undefined || prev.epoch !== map.epoch || !sameNumbers(prev.owners, map.owners)) {
        this.clientTimes.push(t);
        this.client.push(clientViewOf(map, t));
      }
    }
    if (engine.applies !== null) {
      const prev = this.audits[this.audits.length - 1];
      const prevT = this.auditTimes[this.auditTimes.length - 1] ?? -Infinity;
      const a = engine.applies.view();
      const changed =
        prev === undefined ||
        prev.knownBefore?.length !== a.knownBefore?.length ||
        prev.duplicateOps !== a.duplicateOps ||
        prev.ambiguous.total !== a.ambiguous.total ||
        prev.ambiguous.casOwnWriteFound !== a.ambiguous.casOwnWriteFound ||
        prev.ambiguous.casIncrementedAgain !== a.ambiguous.casIncrementedAgain;
      if (changed || (t - prevT >= AUDIT_REFRESH_MS && prev.ambiguous.audited !== a.ambiguous.audited)) {
        this.auditTimes.push(t);
        this.audits.push(a);
      }
    }
  }

  /** the ambiguous-write audit as last kept at or before `t` */
  auditAt(t: number): WriteAuditReport | null {
    const i = lastAtOrBefore(this.auditTimes, t);
    return i < 0 ? null : (this.audits[i] as WriteAuditReport);
  }

  /** the cluster's view at `t` (null before the first): the one kept when it last changed (its `t` says when) */
  clusterAt(t: number): ClusterView | null {
    const i = lastAtOrBefore(this.clusterTimes, t);
    return i < 0 ? null : (this.cluster[i] as ClusterView);
  }

  /** the client's map at `t` (null before the first), as kept when it last changed */
  clientAt(t: number): ClientView | null {
    const i = lastAtOrBefore(this.clientTimes, t);
    return i < 0 ? null : (this.client[i] as ClientView);
  }

  /** rough bytes held (numbers and small arrays) */
  get bytes(): number {
    let n = 0;
    for (const v of this.cluster) n += 64 + v.nodes.length * 48 + v.owners.length * 8 * 3 + v.replicas.reduce((a, r) => a + 32 + r.length * 8, 0);
    for (const v of this.client) n += 32 + v.owners.length * 8;
    for (const a of this.audits) n += 256 + a.ambiguous.list.length * 96 + a.examples.length * 8;
    return n;
  }
}

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function sameCluster(a: ClusterView, b: ClusterView): boolean {
  if (a.epoch !== b.epoch || a.nodes.length !== b.nodes.length || !sameNumbers(a.owners, b.owners)) return false;
  for (let i = 0; i < a.nodes.length; i++) {
    const x = a.nodes[i];
    const y = b.nodes[i];
    if (x?.id !== y?.id || x?.status !== y?.status || x?.declaredDead !== y?.declaredDead) return false;
  }
  for (let i = 0; i < a.phases.length; i++) if (a.phases[i] !== b.phases[i]) return false;
  for (let i = 0; i < a.replicas.length; i++) if (!sameNumbers(a.replicas[i] ?? [], b.replicas[i] ?? [])) return false;
  return true;
}

/** index of the last time ≤ t (-1 if none) */
export function lastAtOrBefore(times: readonly number[], t: number): number {
  return upperBound(times, t) - 1;
}

export interface Recording {
  readonly scenario: Scenario;
  readonly tape: EventTape;
  readonly views: ViewTimeline;
}

/** virtual ms between the checks for unannounced view changes */
const VIEW_CHECK_MS = 100;

/** runs `scenario` once, to its end; `onProgress` gets the fraction done every 2 % */
export function recordScenario(scenario: Scenario, onProgress?: (fraction: number) => void): Recording {
  const tape = new EventTape();
  const views = new ViewTimeline();
  let engine: SimEngine | null = null;
  let pendingAt = NaN;
  const capture = (): void => {
    pendingAt = NaN;
    if (engine !== null) views.capture(engine, engine.now);
  };
  let watch: AvailabilityWatch | null = null;
  const sink: TelemetrySink = {
    emit(e: ZarisEvent) {
      tape.emit(e);
      // (as the invariant checker of a headless run does)
      if (e.type === 'fault' || e.type === 'topology') watch?.observe(e.t);
      if ((e.type === 'fault' || e.type === 'topology' || e.type === 'refresh.end') && engine !== null && pendingAt !== e.t) {
        pendingAt = e.t;
        engine.scheduler.at(e.t, capture);
      }
    },
  };
  engine = new SimEngine(scenario, { sinks: [sink] });
  watch = new AvailabilityWatch(engine.state);
  views.availability = watch;
  engine.runTo(0);
  views.capture(engine, 0);
  const end = scenario.durationMs;
  let reported = 0;
  for (let t = VIEW_CHECK_MS; ; t += VIEW_CHECK_MS) {
    const to = Math.min(t, end);
    engine.runTo(to);
    views.capture(engine, to);
    if (onProgress !== undefined && to / end - reported >= 0.02) {
      reported = to / end;
      onProgress(reported);
    }
    if (to >= end) break;
  }
  watch.finish(engine.now);
  tape.seal();
  onProgress?.(1);
  return { scenario, tape, views };
}
