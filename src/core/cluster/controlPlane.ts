/**
 * The cluster's control plane (SPEC §4): failure detection by missed
 * heartbeats, promotion of replicas, rebalance on scale-out, catch-up and
 * handoff on failback, and the link/ack faults. Everything it does is an
 * effect on {@link ClusterState} at a virtual or real time from the injected
 * scheduler, announced as `fault` / `topology` events.
 */
import { NO_OWNER, type NodeId } from '../domain/clusterMap';
import type { Rng } from '../rng';
import type { TelemetrySink, TopologyChange } from '../telemetry/events';
import type { Scheduler } from '../time/scheduler';
import type { ClusterState, Entry } from './clusterState';
import { MAX_CLUSTER_NODES } from './clusterConfig';
import { FailureDetector } from './failureDetector';
import { FAULTS, type FaultCommand } from './faults';
import { applyLinkFault, type LinkFaultCommand } from './linkFaults';
import { leaveReplicaSet } from './replicaSet';

/** a segment that changes owner: `from` holds the state the new owner must reach */
export interface SegmentMove {
  readonly segment: number;
  readonly from: NodeId;
}

/**
 * Where segment data lives. In simulation it is the ClusterState's per-node
 * stores; in the live playground each node worker holds its own data and a
 * copy is a message to the source node.
 */
export interface DataMover {
  /** live keys `node` holds for `segment` (drives migration / catch-up durations) */
  keyCount(node: NodeId, segment: number): number;
  /** `to` receives a snapshot of `from`'s copy of `segment` and from then on every write to it */
  copySegment(from: NodeId, to: NodeId, segment: number): void;
  /**
   * The data half of an ownership handoff: fence each old owner (it stops
   * acknowledging the segment), bring `to` up to the fenced state, then call
   * `ready` once with the segments `to` may take over. The control plane
   * flips ownership only then. Both shells fence the same way; the
   * simulation's final state arrives after one replication round trip.
   */
  handOff(to: NodeId, moves: readonly SegmentMove[], ready: (segments: readonly number[]) => void): void;
  /** after the flip: `to` serves the segments now (live: it hears of the new view first, the rest after) */
  activated?(to: NodeId, segments: readonly number[]): void;
}

/**
 * The simulation's data mover: copies between the ClusterState's stores. A
 * handoff is fenced as in the live playground: the old owners stop
 * acknowledging the segments (OwnershipChanging), their final state reaches
 * the new owner after `replicationMs` (one round trip), then the flip; an
 * old owner that crashed meanwhile never sends it (that segment is abandoned).
 */
export function stateDataMover(state: ClusterState, scheduler: Scheduler): DataMover {
  const copySegment = (from: NodeId, to: NodeId, segment: number): void => {
    (state.data[to] as Map<string, Entry>[])[segment] = new Map(state.store(from, segment));
  };
  return {
    keyCount: (node, segment) => state.keyCount(node, segment),
    copySegment,
    handOff: (to, moves, ready) => {
      for (const m of moves) state.segment(m.segment).fenced = true;
      state.touch();
      const incarnations = moves.map((m) => state.node(m.from).incarnation);
      scheduler.setTimer(state.config.replicationMs, () => {
        const done: number[] = [];
        moves.forEach((m, i) => {
          if (!state.isServing(m.from) || state.node(m.from).incarnation !== incarnations[i]) return;
          copySegment(m.from, to, m.segment);
          done.push(m.segment);
        });
        ready(done);
        for (const m of moves) state.segment(m.segment).fenced = false; // flipped, or abandoned: the old owner serves again
        state.touch();
      });
    },
  };
}

export interface ControlPlaneOptions {
  readonly data?: DataMover;
  /**
   * `modelled` (simulation): the control plane learns of a crash or hang
   * and schedules its detection from the heartbeat model. `external` (live):
   * a heartbeat detector outside calls {@link ControlPlane.declareDead}.
   */
  readonly detection?: 'modelled' | 'external';
}

export class ControlPlane {
  /** each node's heartbeat phase within a period, ms */
  private readonly phases: number[] = [];
  /** the failure-detection rule (both shells) */
  readonly detector: FailureDetector;
  private readonly data: DataMover;
  private readonly detection: 'modelled' | 'external';
  /** members added by scale-out that have not reached their share of segments yet */
  private readonly joiners = new Set<NodeId>();
  /** joiners with a rebalance in progress */
  private readonly rebalancing = new Set<NodeId>();

  constructor(
    private readonly state: ClusterState,
    private readonly scheduler: Scheduler,
    private readonly rng: Rng,
    private readonly sink?: TelemetrySink,
    options: ControlPlaneOptions = {},
  ) {
    this.data = options.data ?? stateDataMover(state, scheduler);
    this.detection = options.detection ?? 'modelled';
    this.detector = new FailureDetector(state.config);
    for (let i = 0; i < state.nodes.length; i++) this.phases.push(rng.next() * state.config.heartbeatMs);
  }

  /** announces the initial topology */
  announce(): void {
    this.topology('initial', 0, this.state.segments.map((_, i) => i));
  }

  /** carries out one fault now (what each kind does: the fault registry, `faults.ts`) */
  apply(f: FaultCommand): void {
    if (FAULTS[f.action].node === 'required') this.need(f);
    FAULTS[f.action].apply(this, f);
  }

  private need(f: FaultCommand): NodeId {
    if (f.node === undefined || f.node >= this.state.nodes.length) {
      throw new Error(`${f.action}: node ${f.node ?? '(none)'} does not exist (nodes 0..${this.state.nodes.length - 1})`);
    }
    return f.node;
  }

  /** the node a failback without a node brings back: the first one that is down (or declared dead, or hung); -1 if none */
  firstDown(): NodeId {
    const n = this.state.nodes.find((x) => x.status === 'down' || x.declaredDead || x.status === 'hung');
    return n === undefined ? -1 : n.id;
  }

  private fault(action: FaultCommand['action'], node: NodeId, segments: readonly number[], detail?: string): void {
    this.sink?.emit({ t: this.scheduler.now(), type: 'fault', action, node, segments, ...(detail ? { detail } : {}) });
  }

  private topology(change: TopologyChange, node: NodeId, segments: readonly number[]): void {
    this.sink?.emit({ t: this.scheduler.now(), type: 'topology', epoch: this.state.epoch, change, node, segments });
  }

  // ── failover ────────────────────────────────────────────────────────────

  /** failover: the node crashes */
  crash(node: NodeId): void {
    const n = this.state.node(node);
    if (!this.state.isServing(node) && n.status !== 'hung') {
      this.fault('failover', node, [], 'ignored: node is already down');
      return;
    }
    n.status = 'down';
    n.incarnation++;
    this.fault('failover', node, this.state.ownedBy(node));
    this.scheduleDetection(node);
  }

  hang(node: NodeId, durationMs?: number): void {
    const n = this.state.node(node);
    if (n.status !== 'up' && n.status !== 'joining' && n.status !== 'recovering') {
      this.fault('hang', node, [], `ignored: node is ${n.status}`);
      return;
    }
    n.status = 'hung';
    this.fault('hang', node, this.state.ownedBy(node), durationMs !== undefined ? `for ${durationMs} ms` : undefined);
    this.scheduleDetection(node);
    const silence = n.silence;
    if (durationMs !== undefined) this.scheduler.setTimer(durationMs, () => n.status === 'hung' && n.silence === silence && this.resume(node));
  }

  resume(node: NodeId): void {
    const n = this.state.node(node);
    if (n.status !== 'hung') {
      this.fault('resume', node, [], `ignored: node is ${n.status}`);
      return;
    }
    n.silence++;
    this.detector.beat(node, this.scheduler.now()); // it speaks again
    if (n.declaredDead) {
      this.fault('resume', node, [], 'was declared dead: rejoins');
      this.rejoin(node);
    } else {
      n.status = 'up';
      n.busyUntil = this.scheduler.now();
      this.fault('resume', node, []);
      // it may be the in-sync replica of segments that lost their owner while it was silent
      this.promoteOrphans(node);
      // it may have left replica sets while it was silent: it rejoins them
      this.repairReplicas();
    }
  }

  /**
   * Modelled detection (simulation): a serving node beats at its phase +
   * k × heartbeatMs, so its last beat is the last such slot at or before it
   * went silent; the detector checks once, at the first check time its rule
   * (`failureDetector.ts`) says dead, and declares the node dead if it is
   * still silent (no restart, no resume since).
   */
  private scheduleDetection(node: NodeId): void {
    if (this.detection === 'external') return;
    const hb = this.state.config.heartbeatMs;
    const now = this.scheduler.now();
    const phase = this.phases[node] ?? 0;
    this.detector.beat(node, Math.floor((now - phase) / hb) * hb + phase);
    const checkAt = this.detector.nextCheckAt(this.detector.deadFrom(node));
    const { incarnation, silence } = this.state.node(node);
    this.scheduler.setTimer(Math.max(0, checkAt - now), () => {
      const n = this.state.node(node);
      const stillSilent = n.incarnation === incarnation && n.silence === silence;
      if ((n.status === 'down' || n.status === 'hung') && !n.declaredDead && stillSilent && this.detector.isDead(node, this.scheduler.now())) this.declareDead(node);
    });
  }

  /**
   * A detector check now (live: every heartbeatMs): declares dead every
   * member the rule says is; a member declared dead whose heartbeats came
   * back (a stalled worker, not a crash) rejoins like a resumed one.
   */
  check(): void {
    const now = this.scheduler.now();
    for (const n of this.state.nodes) {
      const dead = this.detector.isDead(n.id, now);
      if (!n.declaredDead && dead) this.declareDead(n.id);
      else if (n.declaredDead && !dead && n.status === 'up') {
        this.fault('resume', n.id, [], 'declared dead, but its heartbeats came back: rejoins');
        this.rejoin(n.id);
      }
    }
  }

  /** the detector's verdict: fail the node's segments over to live replicas */
  declareDead(node: NodeId): void {
    const st = this.state;
    if (st.node(node).declaredDead) return;
    st.node(node).declaredDead = true;
    const promoted: number[] = [];
    const unavailable: number[] = [];
    const touched: number[] = [];
    st.segments.forEach((seg, i) => {
      const wasReplica = seg.replicas.includes(node);
      if (wasReplica) seg.replicas = seg.replicas.filter((r) => r !== node);
      if (seg.owner !== node) {
        if (wasReplica) touched.push(i);
        return;
      }
      touched.push(i);
      seg.phase = 'stable';
      const next = seg.replicas.find((r) => st.isServing(r));
      if (next !== undefined) {
        seg.owner = next;
        seg.replicas = seg.replicas.filter((r) => r !== next);
        promoted.push(i);
      } else {
        seg.lastOwner = node;
        seg.owner = NO_OWNER;
        unavailable.push(i);
      }
    });
    st.bump();
    this.topology('nodeDown', node, touched);
    if (promoted.length > 0) this.topology('promoted', node, promoted);
    if (unavailable.length > 0) this.topology('unavailable', node, unavailable);
    this.replan();
    this.repairReplicas();
  }

  /** A replica missed a synchronous write (live: the owner reports it): it leaves the replica set (`replicaSet.ts`). */
  replicaLost(segment: number, replica: NodeId): void {
    if (!leaveReplicaSet(this.state, segment, (r) => r === replica)) return;
    // a replica that is still up (a late ack) catches up and rejoins
    this.repairReplicas();
  }

  /** segments `node` is an assigned replica of but not in the replica set of (their owner serves) */
  private replicaGaps(node: NodeId): number[] {
    const st = this.state;
    return st.segments.flatMap((s, i) =>
      s.preferred !== node && s.placement.includes(node) && s.owner !== node && s.owner !== NO_OWNER && !s.replicas.includes(node) ? [i] : [],
    );
  }

  /**
   * Segments left without an owner while their in-sync replica `node` was
   * hung (the detector found no serving replica to promote): now that it
   * answers again, it is promoted (one epoch for the batch).
   */
  private promoteOrphans(node: NodeId): void {
    const st = this.state;
    const promoted: number[] = [];
    st.segments.forEach((seg, s) => {
      if (seg.owner !== NO_OWNER || !seg.replicas.includes(node)) return;
      seg.owner = node;
      seg.replicas = seg.replicas.filter((r) => r !== node);
      promoted.push(s);
    });
    if (promoted.length === 0) return;
    st.bump();
    this.topology('promoted', node, promoted);
  }

  /**
   * Every member that is up and assigned to a segment whose owner serves,
   * but is not in its replica set (which has room), catches up and rejoins
   * it. Run after each change that can open such a gap (a member returned,
   * an owner came back, a replica was reported lost).
   */
  private repairReplicas(): void {
    const st = this.state;
    const gaps = new Map<NodeId, number[]>();
    st.segments.forEach((seg, s) => {
      if (seg.owner === NO_OWNER || !st.isServing(seg.owner) || seg.replicas.length >= st.config.replicas) return;
      for (const n of seg.placement) {
        if (n === seg.owner || seg.replicas.includes(n)) continue;
        const info = st.node(n);
        if (info.status !== 'up' || info.declaredDead) continue;
        const list = gaps.get(n) ?? [];
        list.push(s);
        gaps.set(n, list);
      }
    });
    for (const [n, segments] of gaps) this.resync(n, segments);
  }

  /**
   * `node` (serving) catches up on segments it is an assigned replica of but
   * left the replica set of (it was hung, or an ack was late), then is in
   * their replica sets again: no ownership change, so no epoch. It is
   * `recovering` meanwhile (serving, not yet a caught-up replica).
   */
  private resync(node: NodeId, segments: readonly number[]): void {
    if (segments.length === 0) return;
    const n = this.state.node(node);
    n.status = 'recovering';
    this.catchUp(node, segments, false);
  }

  // ── failback ────────────────────────────────────────────────────────────

  failback(node: NodeId): void {
    if (node < 0 || node >= this.state.nodes.length) {
      this.fault('failback', Math.max(node, 0), [], 'ignored: no node is down');
      return;
    }
    const n = this.state.node(node);
    if (n.status !== 'down' && !n.declaredDead) {
      this.fault('failback', node, [], `ignored: node is ${n.status} and was not failed over`);
      return;
    }
    this.fault('failback', node, this.state.segments.flatMap((s, i) => (s.preferred === node ? [i] : [])));
    this.rejoin(node);
  }

  /** a returning node: reclaims orphaned segments, catches up, then takes its preferred segments back */
  private rejoin(node: NodeId): void {
    const st = this.state;
    const n = st.node(node);
    if (n.status === 'down') n.incarnation++;
    n.silence++;
    this.detector.beat(node, this.scheduler.now()); // it speaks again
    n.status = 'recovering';
    n.busyUntil = this.scheduler.now();
    if (n.declaredDead) {
      n.declaredDead = false;
      const reclaimed: number[] = [];
      st.segments.forEach((seg, i) => {
        if (seg.owner === NO_OWNER && seg.lastOwner === node) {
          seg.owner = node;
          reclaimed.push(i);
        }
      });
      st.bump();
      this.topology('reclaimed', node, reclaimed);
    }
    // its preferred segments (handed back after the catch-up) and the ones
    // it is only an assigned replica of (it rejoins their replica sets)
    const preferred = st.segments.flatMap((s, i) => (s.preferred === node && s.owner !== node && s.owner !== NO_OWNER ? [i] : []));
    const toSync = [...preferred, ...this.replicaGaps(node)].sort((a, b) => a - b);
    this.catchUp(node, toSync, true);
    this.repairReplicas(); // segments it reclaimed: their up members rejoin
  }

  /** copies `toSync` to `node` after the catch-up time; `handBack`: then hands its preferred segments back */
  private catchUp(node: NodeId, toSync: readonly number[], handBack: boolean): void {
    const st = this.state;
    const n = st.node(node);
    const keys = toSync.reduce((sum, s) => sum + this.data.keyCount(st.segment(s).owner, s), 0);
    const { catchUpBaseMs, catchUpMsPerKey } = st.config;
    this.topology('catchUpStart', node, toSync);
    const { incarnation, silence } = n;
    this.scheduler.setTimer(catchUpBaseMs + keys * catchUpMsPerKey, () => {
      if (n.incarnation !== incarnation || n.silence !== silence || n.status !== 'recovering') return;
      this.finishCatchUp(node, toSync, handBack);
    });
  }

  private finishCatchUp(node: NodeId, toSync: readonly number[], handBack: boolean): void {
    const st = this.state;
    const synced: number[] = [];
    for (const s of toSync) {
      const seg = st.segment(s);
      if (seg.owner === NO_OWNER || seg.owner === node || !st.isServing(seg.owner)) continue;
      if (seg.replicas.includes(node)) {
        synced.push(s);
        continue;
      }
      // a segment it is only assigned to, whose replica set filled up meanwhile, stays without it
      if (seg.preferred !== node && seg.replicas.length >= st.config.replicas) continue;
      this.data.copySegment(seg.owner, node, s);
      seg.replicas.push(node);
      synced.push(s);
    }
    st.node(node).status = 'up';
    st.touch();
    this.topology('catchUpEnd', node, synced);
    this.repairReplicas();
    if (!handBack) return;
    // Hand ownership back: fence the former owners, let the returning node
    // reach their fenced state, then flip (one epoch for the whole batch);
    // the former owner is a replica again once the handoff window closes.
    const moves: SegmentMove[] = [];
    for (const s of synced) {
      const seg = st.segment(s);
      if (seg.phase !== 'stable' || seg.preferred !== node) continue;
      seg.phase = 'transitioning';
      moves.push({ segment: s, from: seg.owner });
    }
    if (moves.length === 0) return;
    st.touch();
    this.data.handOff(node, moves, (ready) => this.handBack(node, moves, ready));
  }

  private handBack(node: NodeId, moves: readonly SegmentMove[], ready: readonly number[]): void {
    const st = this.state;
    const handed: number[] = [];
    for (const { segment: s, from } of moves) {
      const seg = st.segment(s);
      if (seg.owner !== from || seg.phase !== 'transitioning') continue;
      if (!ready.includes(s) || !st.isServing(node)) {
        seg.phase = 'stable'; // the handoff did not complete: the former owner keeps the segment
        continue;
      }
      seg.owner = node;
      seg.replicas = [from, ...seg.replicas.filter((r) => r !== node && r !== from)].slice(0, st.config.replicas);
      handed.push(s);
    }
    if (handed.length === 0) {
      st.touch();
      return;
    }
    st.bump();
    this.topology('handoffStart', node, handed);
    this.data.activated?.(node, handed);
    this.scheduler.setTimer(st.config.handoffMs, () => {
      for (const s of handed) {
        const seg = st.segment(s);
        if (seg.phase === 'transitioning') seg.phase = 'stable';
      }
      st.touch();
      this.topology('handoffEnd', node, handed);
    });
  }

  // ── scale-out ───────────────────────────────────────────────────────────

  scaleOut(): void {
    const st = this.state;
    if (st.nodes.length >= MAX_CLUSTER_NODES) {
      this.fault('scaleOut', st.nodes.length - 1, [], `ignored: the cluster has ${st.nodes.length} nodes, the most it may have (${MAX_CLUSTER_NODES})`);
      return;
    }
    const joiner = st.addNode('joining');
    this.phases.push(this.rng.next() * st.config.heartbeatMs);
    this.joiners.add(joiner.id);
    st.bump(); // membership changed: the map lists the new node
    const plan = this.rebalancePlan(joiner.id);
    this.fault('scaleOut', joiner.id, plan);
    this.topology('nodeJoined', joiner.id, plan);
    this.rebalance(joiner.id, plan);
  }

  /** migrates `plan` to `joiner`, a few segments at a time */
  private rebalance(joiner: NodeId, plan: readonly number[]): void {
    const st = this.state;
    const n = st.node(joiner);
    this.rebalancing.add(joiner);
    let next = 0;
    let running = 0;
    const startNext = (): void => {
      while (running < st.config.migrationConcurrency && next < plan.length) {
        const s = plan[next++] as number;
        const seg = st.segment(s);
        if (seg.phase !== 'stable' || seg.owner === NO_OWNER || !st.isServing(seg.owner)) continue;
        running++;
        this.migrate(joiner, s, () => {
          running--;
          startNext();
        });
      }
      if (running > 0 || next < plan.length) return;
      this.rebalancing.delete(joiner);
      if (n.status === 'joining') n.status = 'up';
      if (st.ownedBy(joiner).length >= this.share()) this.joiners.delete(joiner);
    };
    startNext();
  }

  /**
   * After a member is declared dead, a joiner still short of its share
   * (its scale-out came while that member was down but not yet declared
   * dead, so the member's segments could not move) gets a new plan.
   */
  private replan(): void {
    for (const j of [...this.joiners]) {
      const n = this.state.node(j);
      if (this.rebalancing.has(j) || !this.state.isServing(j) || n.declaredDead) continue;
      const plan = this.rebalancePlan(j);
      if (plan.length === 0) {
        this.joiners.delete(j);
        continue;
      }
      this.topology('nodeJoined', j, plan);
      this.rebalance(j, plan);
    }
  }

  /** segments per member: the members not declared dead share them */
  private share(): number {
    return Math.floor(this.state.segments.length / Math.max(1, this.state.members().length));
  }

  /**
   * Take segments from the fullest serving owners until the joiner has its
   * share. The share counts every member not declared dead (a down member's
   * segments cannot move until it is declared dead and they are promoted).
   */
  private rebalancePlan(joiner: NodeId): number[] {
    const st = this.state;
    const target = this.share();
    const donors = st.nodes.filter((n) => n.id !== joiner && st.isServing(n.id) && !n.declaredDead);
    const owned = new Map<NodeId, number[]>(donors.map((n) => [n.id, st.ownedBy(n.id).filter((s) => st.segment(s).phase === 'stable')]));
    const plan: number[] = [];
    const has = st.ownedBy(joiner).length;
    while (has + plan.length < target) {
      let donor: NodeId | null = null;
      for (const [id, segs] of owned) {
        if (donor === null || segs.length > (owned.get(donor) as number[]).length) donor = id;
      }
      const segs = donor === null ? [] : (owned.get(donor) as number[]);
      if (segs.length <= target) break;
      plan.push(segs.pop() as number);
    }
    return plan.sort((a, b) => a - b);
  }

  private migrate(joiner: NodeId, s: number, done: () => void): void {
    const st = this.state;
    const seg = st.segment(s);
    const source = seg.owner;
    seg.phase = 'migrating';
    st.touch();
    this.topology('migrationStart', joiner, [s]);
    const { migrationBaseMs, migrationMsPerKey } = st.config;
    const stillPlanned = (): boolean => seg.phase === 'migrating' && seg.owner === source && st.isServing(joiner);
    const abandon = (): void => {
      if (seg.phase === 'migrating') {
        seg.phase = 'stable';
        st.touch();
      }
      done();
    };
    this.scheduler.setTimer(migrationBaseMs + this.data.keyCount(source, s) * migrationMsPerKey, () => {
      if (!stillPlanned() || !st.isServing(source)) return abandon();
      this.data.handOff(joiner, [{ segment: s, from: source }], (ready) => {
        if (!ready.includes(s) || !stillPlanned()) return abandon();
        // The old owner leaves the segment (SPEC §4: it answers Moved to a
        // stale client); the other replicas keep their in-sync copies. It
        // stays a replica only when the segment would otherwise be short of one.
        const replicas = seg.replicas.filter((r) => r !== joiner && r !== source);
        if (replicas.length < st.config.replicas && st.isServing(source)) replicas.push(source);
        seg.replicas = replicas.slice(0, st.config.replicas);
        seg.placement = [joiner, ...seg.placement.filter((r) => r !== joiner && r !== source), ...(seg.replicas.includes(source) ? [source] : [])].slice(0, st.config.replicas + 1);
        seg.owner = joiner;
        seg.preferred = joiner;
        seg.phase = 'stable';
        st.bump();
        this.topology('migrationEnd', joiner, [s]);
        this.data.activated?.(joiner, [s]);
        done();
      });
    });
  }

  // ── link faults ─────────────────────────────────────────────────────────

  /** a fault on the node's client link (`linkFaults.ts`: the same state and rules in both shells) */
  linkFault(node: NodeId, action: FaultCommand['action'], cmd: LinkFaultCommand): void {
    applyLinkFault(this.state.node(node).link, cmd, this.scheduler.now());
    this.fault(action, node, this.state.ownedBy(node), linkDetail(cmd));
  }
}

/** the fault event's detail of a link fault */
function linkDetail(cmd: LinkFaultCommand): string | undefined {
  switch (cmd.kind) {
    case 'slow':
      return `latency ×${cmd.factor} for ${cmd.durationMs} ms`;
    case 'lostAck':
      return `p=${cmd.probability} for ${cmd.durationMs} ms`;
    case 'partition':
      return `${cmd.direction === 'in' ? 'requests to the node' : 'replies of the node'} lost for ${cmd.durationMs} ms`;
    case 'garble':
      return `p=${cmd.probability} for ${cmd.durationMs} ms`;
    case 'heal':
      return undefined;
  }
}
