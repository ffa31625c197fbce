/**
 * The thin shell around the control plane's core, for both shells: it
 * hands inputs in with the time, then carries out what the core decided —
 * events to the sink, timers on the scheduler (firing back into the core),
 * and the data-plane commands to the shell's {@link DataPlane} (the
 * simulation's node stores, `sim/simControl.ts`; messages to node workers,
 * `live/liveControl.ts`). No decision is taken here.
 */
import type { NodeId } from '../domain/clusterMap';
import type { TelemetrySink } from '../telemetry/events';
import type { Scheduler } from '../time/scheduler';
import type { ControlOutput, ControlPlane, ControlTimer } from './controlPlane';
import type { FaultCommand } from './faults';

/** what a shell does with the core's data-plane commands (see {@link ControlOutput}) */
export interface DataPlane {
  copy(from: NodeId, to: NodeId, segment: number): void;
  fence(handoff: number, from: NodeId, to: NodeId, segment: number): void;
  unfence(node: NodeId, segment: number): void;
  activated(node: NodeId, segments: readonly number[]): void;
  link(node: NodeId, cmd: Extract<ControlOutput, { kind: 'link' }>['cmd']): void;
  speaksAgain(node: NodeId): void;
}

export class ControlDriver {
  constructor(
    readonly core: ControlPlane,
    private readonly scheduler: Scheduler,
    private readonly sink: TelemetrySink | undefined,
    private readonly data: DataPlane,
  ) {}

  announce(): void {
    this.core.announce(this.scheduler.now());
    this.flush();
  }

  /** applies fault `f` now; returns the time it took effect (its `fault` event's) */
  apply(f: FaultCommand): number {
    const now = this.scheduler.now();
    this.core.apply(f, now);
    this.flush();
    return now;
  }

  check(): void {
    this.core.check(this.scheduler.now());
    this.flush();
  }

  beat(node: NodeId): void {
    this.core.beat(node, this.scheduler.now());
  }

  replicaLost(segment: number, replica: NodeId): void {
    this.core.replicaLost(segment, replica, this.scheduler.now());
    this.flush();
  }

  caughtUp(handoff: number, segment: number): void {
    this.core.caughtUp(handoff, segment, this.scheduler.now());
    this.flush();
  }

  private fire(t: ControlTimer): void {
    this.core.fire(t, this.scheduler.now());
    this.flush();
  }

  /** carries out the core's outputs, in order (until it has decided nothing more) */
  private flush(): void {
    for (let out = this.core.ready(); out.length > 0; out = this.core.ready()) {
      for (const o of out) this.carry(o);
    }
  }

  private carry(o: ControlOutput): void {
    switch (o.kind) {
      case 'event':
        this.sink?.emit(o.event);
        return;
      case 'timer':
        this.scheduler.setTimer(o.afterMs, () => this.fire(o.timer));
        return;
      case 'copy':
        return this.data.copy(o.from, o.to, o.segment);
      case 'fence':
        return this.data.fence(o.handoff, o.from, o.to, o.segment);
      case 'unfence':
        return this.data.unfence(o.node, o.segment);
      case 'activated':
        return this.data.activated(o.node, o.segments);
      case 'link':
        return this.data.link(o.node, o.cmd);
      case 'speaksAgain':
        return this.data.speaksAgain(o.node);
    }
  }
}
