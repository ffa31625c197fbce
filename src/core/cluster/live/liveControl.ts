/**
 * The live playground's control shell, pure (the control worker only moves
 * messages): the same control-plane core as the simulation
 * (`controlPlane.ts`, through `controlDriver.ts`), with failure detection
 * from real heartbeats, its data-plane commands carried out as messages to
 * the node workers, the nodes' disks, and the cluster view pushed to nodes
 * and the UI.
 *
 * A handoff (`handoff.ts`): a `fence` goes to the old owner, which answers
 * OwnershipChanging and sends its final state to the new owner on the FIFO
 * peer port; the new owner's `caughtUp` goes back into the core; after the
 * flip the new owner hears of the new view first, then everyone else (the
 * old owner's fence settles with that view); an abandoned move is unfenced.
 */
import { NO_OWNER, type NodeId } from '../../domain/clusterMap';
import { Rng } from '../../rng';
import type { TelemetrySink } from '../../telemetry/events';
import type { Scheduler, TimerId } from '../../time/scheduler';
import type { ClusterConfig } from '../clusterConfig';
import { ControlState } from '../controlState';
import { ControlDriver } from '../controlDriver';
import { ControlPlane } from '../controlPlane';
import type { FaultCommand } from '../faults';
import { clusterViewOf, nodeViewOf, type ClusterView } from '../views';
import { freshestCopy } from '../freshestCopy';
import type { Entry } from '../segmentStore';
import { DiskStore } from './diskStore';
import type { ControlToNode, NodeToControl, SegmentEntries } from './protocol';

export { HANDOFF_TIMEOUT_MS } from '../handoff';
/** ms the final-state check waits for node dumps */
const DUMP_TIMEOUT_MS = 1_000;

export interface LiveControlLinks {
  /** posts to a node worker (dropped when the node has no link) */
  toNode(node: NodeId, msg: ControlToNode): void;
  /** the cluster's truth, for the UI */
  clusterView(view: ClusterView): void;
}

interface Dump {
  readonly copies: Map<NodeId, readonly SegmentEntries[]>;
  readonly expected: Set<NodeId>;
  finish(): void;
}

/** key → the version the cluster holds now (its active owner's copy; for a segment without a live owner, the freshest durable copy) */
export type ClusterVersions = Map<string, number>;

export class LiveControl {
  /** the control plane's record */
  readonly state: ControlState;
  readonly control: ControlDriver;
  readonly disks: DiskStore;
  /** nodes with a live worker */
  private readonly linked = new Set<NodeId>();
  /** node → how often it was linked (its current worker's incarnation) */
  private readonly incarnations = new Map<NodeId, number>();
  private readonly keyCounts = new Map<NodeId, readonly number[]>();
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
    this.state = new ControlState(config);
    this.disks = new DiskStore(config.segments);
    const core = new ControlPlane(this.state, Rng.seeded(seed), { detection: 'external', keyCount: (node, segment) => this.keyCounts.get(node)?.[segment] ?? 0 });
    this.control = new ControlDriver(core, scheduler, sink, {
      copy: (from, to, segment) => this.send(from, { kind: 'copy', segment, to }),
      fence: (handoff, from, to, segment) => {
        this.publish(false); // the segments are transitioning
        this.send(from, { kind: 'fence', handoff, segment, to });
      },
      unfence: (node, segment) => this.send(node, { kind: 'unfence', segment }),
      activated: (to) => this.publish(true, to),
      link: (node, cmd) => this.send(node, { kind: 'link', cmd }),
      speaksAgain: () => undefined, // a restarted or resumed worker has no queue of the silence
    });
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
    this.control.beat(id);
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
        this.control.beat(id);
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
        this.control.caughtUp(msg.handoff, msg.segment);
        this.publish(false);
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

  /** carries out a fault (the bridge has already killed / started workers where needed); returns the time it took effect (its `fault` event's) */
  fault(cmd: FaultCommand): number {
    const node = cmd.node;
    if (cmd.action === 'failover' && node !== undefined) this.nodeUnlinked(node);
    const before = node === undefined ? undefined : this.state.nodes[node]?.status;
    const t = this.control.apply(cmd);
    if (node !== undefined) {
      const n = this.state.nodes[node];
      // the worker mirrors the control plane's verdict: hung only if this hang took effect,
      // answering again once the control plane resumed it (its own timer fires first)
      if (cmd.action === 'hang' && before !== 'hung' && n?.status === 'hung') {
        this.send(node, { kind: 'hang', on: true });
        if (cmd.durationMs !== undefined) this.scheduler.setTimer(cmd.durationMs, () => n.status !== 'hung' && this.send(node, { kind: 'hang', on: false }));
      }
      if (cmd.action === 'resume' && before === 'hung') this.send(node, { kind: 'hang', on: false });
    }
    this.publish(true);
    return t;
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
