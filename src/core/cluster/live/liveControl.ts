/**
 * The live playground's control plane, pure (the control worker only moves
 * messages): the same ControlPlane as the simulation, with failure detection
 * from real heartbeats, segment copies and handoffs carried out by the node
 * workers, the nodes' disks, and the cluster view pushed to nodes and the UI.
 *
 * A handoff (failback, scale-out) never has two nodes acknowledging writes
 * for one segment: the old owner is fenced first (it answers
 * OwnershipChanging and sends its final state to the new owner on the FIFO
 * peer port), the new owner reports that it caught up, ownership flips (one
 * epoch for the batch), the new owner hears of the new view first, then
 * everyone else.
 */
import { NO_OWNER, type NodeId } from '../../domain/clusterMap';
import { Rng } from '../../rng';
import type { TelemetrySink } from '../../telemetry/events';
import type { Scheduler, TimerId } from '../../time/scheduler';
import type { ClusterConfig } from '../clusterConfig';
import { ClusterState, type Entry } from '../clusterState';
import { ControlPlane, type DataMover, type SegmentMove } from '../controlPlane';
import { FAULTS, type FaultCommand } from '../faults';
import { clusterViewOf, nodeViewOf, type ClusterView } from '../views';
import { freshestCopy } from '../freshestCopy';
import { DiskStore } from './diskStore';
import type { ControlToNode, NodeToControl, SegmentEntries } from './protocol';

/** ms a handoff waits for the new owner to catch up before it is abandoned (the old owner keeps the segment) */
export const HANDOFF_TIMEOUT_MS = 5_000;
/** ms the final-state check waits for node dumps */
const DUMP_TIMEOUT_MS = 1_000;

export interface LiveControlLinks {
  /** posts to a node worker (dropped when the node has no link) */
  toNode(node: NodeId, msg: ControlToNode): void;
  /** the cluster's truth, for the UI */
  clusterView(view: ClusterView): void;
}

interface Handoff {
  readonly to: NodeId;
  caughtUp(segment: number): void;
}

interface Dump {
  readonly copies: Map<NodeId, readonly SegmentEntries[]>;
  readonly expected: Set<NodeId>;
  finish(): void;
}

/** key → the version the cluster holds now (its active owner's copy; for a segment without a live owner, the freshest durable copy) */
export type ClusterVersions = Map<string, number>;

export class LiveControl {
  readonly state: ClusterState;
  readonly control: ControlPlane;
  readonly disks: DiskStore;
  /** nodes with a live worker */
  private readonly linked = new Set<NodeId>();
  /** node → how often it was linked (its current worker's incarnation) */
  private readonly incarnations = new Map<NodeId, number>();
  private readonly keyCounts = new Map<NodeId, readonly number[]>();
  private readonly handoffs = new Map<number, Handoff>();
  private readonly dumps = new Map<number, Dump>();
  private nextId = 1;
  private publishedVersion = -1;
  private readonly timers: TimerId[] = [];
  private stopped = false;

  constructor(
    config: ClusterConfig,
    seed: number,
    private readonly scheduler: Scheduler,
    sink: TelemetrySink | undefined,
    private readonly links: LiveControlLinks,
  ) {
    this.state = new ClusterState(config);
    this.disks = new DiskStore(config.segments);
    const data: DataMover = {
      keyCount: (node, segment) => this.keyCounts.get(node)?.[segment] ?? 0,
      copySegment: (from, to, segment) => this.send(from, { kind: 'copy', segment, to }),
      handOff: (to, moves, ready) => this.handOff(to, moves, ready),
      activated: (to) => this.publish(true, to),
    };
    this.control = new ControlPlane(this.state, scheduler, Rng.seeded(seed), sink, { data, detection: 'external' });
  }

  /** announces the initial topology and starts detection and view publishing */
  start(): void {
    this.every(this.state.config.heartbeatMs, () => this.detect());
    this.every(50, () => this.publish(false));
    this.every(1_000, () => this.publish(true));
    this.control.announce();
    this.publish(true);
  }

  stop(): void {
    this.stopped = true;
    for (const t of this.timers) this.scheduler.clearTimer(t);
  }

  private every(ms: number, fn: () => void): void {
    const slot = this.timers.length;
    const arm = (): void => {
      this.timers[slot] = this.scheduler.setTimer(ms, () => {
        if (this.stopped) return;
        fn();
        arm();
      });
    };
    arm();
  }

  private send(node: NodeId, msg: ControlToNode): void {
    if (this.linked.has(node)) this.links.toNode(node, msg);
  }

  /** a node worker (initial, scale-out, restart) is linked: it replays its disk, then gets the view */
  nodeLinked(id: NodeId): void {
    this.linked.add(id);
    this.control.detector.beat(id, this.scheduler.now());
    const incarnation = (this.incarnations.get(id) ?? 0) + 1;
    this.incarnations.set(id, incarnation);
    this.links.toNode(id, { kind: 'replay', incarnation, segments: this.disks.replay(id) });
    this.publish(true);
  }

  /** a node worker was terminated */
  nodeUnlinked(id: NodeId): void {
    this.linked.delete(id);
  }

  /** pushes the view when it changed (or always); `first` hears of it before the others */
  publish(force: boolean, first?: NodeId): void {
    if (!force && this.state.version === this.publishedVersion) return;
    this.publishedVersion = this.state.version;
    const view = clusterViewOf(this.state, this.scheduler.now());
    const msg: ControlToNode = { kind: 'view', view: nodeViewOf(view) };
    if (first !== undefined) this.send(first, msg);
    for (const id of this.linked) if (id !== first) this.links.toNode(id, msg);
    this.links.clusterView(view);
  }

  /** a detector check on the heartbeats that arrived (the rule: `failureDetector.ts`) */
  private detect(): void {
    this.control.check();
    this.publish(false);
  }

  fromNode(id: NodeId, msg: NodeToControl): void {
    switch (msg.kind) {
      case 'heartbeat':
        this.control.detector.beat(id, this.scheduler.now());
        this.keyCounts.set(id, msg.keyCounts);
        return;
      case 'replicaLost':
        this.control.replicaLost(msg.segment, msg.replica);
        return;
      case 'persist':
        // a crashed incarnation's late writes were never acknowledged (an owner waits for `persisted`): dropped
        if (msg.incarnation !== this.incarnations.get(id)) return;
        for (const w of msg.writes) this.disks.write(id, w.segment, w.key, w.entry);
        this.send(id, { kind: 'persisted', seq: msg.seq });
        return;
      case 'persistSegment':
        if (msg.incarnation !== this.incarnations.get(id)) return;
        this.disks.merge(id, msg.segment, msg.entries);
        return;
      case 'caughtUp':
        this.handoffs.get(msg.handoff)?.caughtUp(msg.segment);
        return;
      case 'dumped': {
        const d = this.dumps.get(msg.id);
        if (d === undefined) return;
        d.copies.set(id, msg.segments);
        d.expected.delete(id);
        if (d.expected.size === 0) d.finish();
        return;
      }
    }
  }

  /** fence the old owners, wait for `to` to catch up, then let the control plane flip */
  private handOff(to: NodeId, moves: readonly SegmentMove[], ready: (segments: readonly number[]) => void): void {
    const id = this.nextId++;
    const pending = new Set(moves.map((m) => m.segment));
    const done: number[] = [];
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      this.scheduler.clearTimer(timer);
      this.handoffs.delete(id);
      ready(done);
      // fenced owners that keep their segment (abandoned or refused) serve it again
      for (const m of moves) if (this.state.segment(m.segment).owner !== to) this.send(m.from, { kind: 'unfence', segment: m.segment });
      this.publish(false);
    };
    this.handoffs.set(id, {
      to,
      caughtUp: (segment) => {
        if (!pending.delete(segment)) return;
        done.push(segment);
        if (pending.size === 0) finish();
      },
    });
    const timer = this.scheduler.setTimer(HANDOFF_TIMEOUT_MS, finish);
    this.publish(false); // the segments are transitioning
    for (const m of moves) this.send(m.from, { kind: 'fence', handoff: id, segment: m.segment, to });
  }

  /** carries out a fault (the bridge has already killed / started workers where needed) */
  fault(cmd: FaultCommand): void {
    const node = cmd.node;
    if (cmd.action === 'failover' && node !== undefined) this.nodeUnlinked(node);
    const before = node === undefined ? undefined : this.state.nodes[node]?.status;
    this.control.apply(cmd);
    if (node !== undefined) {
      const n = this.state.nodes[node];
      // the worker mirrors the control plane's verdict: hung only if this hang took effect,
      // answering again once the control plane resumed it (its own timer fires first)
      if (cmd.action === 'hang' && before !== 'hung' && n?.status === 'hung') {
        this.send(node, { kind: 'hang', on: true });
        if (cmd.durationMs !== undefined) this.scheduler.setTimer(cmd.durationMs, () => n.status !== 'hung' && this.send(node, { kind: 'hang', on: false }));
      }
      if (cmd.action === 'resume' && before === 'hung') this.send(node, { kind: 'hang', on: false });
      const link = FAULTS[cmd.action].link;
      if (link !== undefined) this.send(node, { kind: 'link', cmd: link(cmd) });
    }
    this.publish(true);
  }

  /**
   * The data the cluster holds now, for the final-state check: each segment
   * from its active owner's memory (a live replica's when the owner does not
   * answer), else from the freshest durable copy (a down owner's disk).
   */
  clusterVersions(done: (versions: ClusterVersions) => void): void {
    const id = this.nextId++;
    const expected = new Set([...this.linked].filter((n) => this.state.nodes[n]?.status !== 'hung'));
    const copies = new Map<NodeId, readonly SegmentEntries[]>();
    let finished = false;
    const finish = (): void => {
      if (finished) return;
      finished = true;
      this.scheduler.clearTimer(timer);
      this.dumps.delete(id);
      done(this.compose(copies));
    };
    this.dumps.set(id, { copies, expected, finish });
    const timer = this.scheduler.setTimer(DUMP_TIMEOUT_MS, finish);
    for (const n of expected) this.links.toNode(n, { kind: 'dump', id });
    if (expected.size === 0) finish();
  }

  private compose(copies: ReadonlyMap<NodeId, readonly SegmentEntries[]>): ClusterVersions {
    const out: ClusterVersions = new Map();
    const add = (entries: Iterable<readonly [string, Entry]>): void => {
      for (const [key, e] of entries) out.set(key, e.version);
    };
    this.state.segments.forEach((seg, s) => {
      const holder = [seg.owner, ...seg.replicas].find((n) => n !== NO_OWNER && copies.has(n));
      if (holder !== undefined) return add((copies.get(holder) as readonly SegmentEntries[])[s] ?? []);
      add(this.freshestDisk(s));
    });
    return out;
  }

  private freshestDisk(segment: number): ReadonlyMap<string, Entry> {
    return freshestCopy(this.state.nodes.map((n) => this.disks.segment(n.id, segment))) ?? new Map<string, Entry>();
  }

  /** number of members the control plane knows (scale-out assigns the next id) */
  nodeCount(): number {
    return this.state.nodes.length;
  }
}
