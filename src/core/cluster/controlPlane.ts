/**
 * The cluster's control plane (SPEC §4), one core for both shells: failure
 * detection by missed heartbeats, promotion of replicas, rebalance on
 * scale-out, catch-up and handoff on failback, replica-set repair, and the
 * link/ack faults — on the control plane's record ({@link ControlState}).
 *
 * Raft's shape: a pure state machine. Every input (a fault, a timer it set
 * firing, a detector check, a heartbeat, a replica reported lost, a
 * caught-up report) carries the time; what it decides comes out as values
 * — events to emit, timers to set, commands for the data plane — collected
 * until the shell takes them with {@link ControlPlane.ready}. It sets no
 * timer, sends nothing and reads no clock itself. The shells carry the
 * outputs out: `controlDriver.ts` (timers and events, both shells), the
 * simulation's nodes (`sim/simControl.ts`) and the live node workers
 * (`live/liveControl.ts`).
 */
import { NO_OWNER, type NodeId } from '../domain/clusterMap';
import type { Rng } from '../rng';
import { IGNORED_FAULT, type ClusterEvent, type FaultAction, type TopologyChange } from '../telemetry/events';
import type { ControlState } from './controlState';
import { MAX_CLUSTER_NODES } from './clusterConfig';
import { FailureDetector } from './failureDetector';
import { FAULTS, type FaultCommand } from './faults';
import { HANDOFF_TIMEOUT_MS, Handoffs, type CompletedHandoff, type FenceCommand, type SegmentMove } from './handoff';
import { failbackCandidate, nodeFaultActs } from './faultRules';
import type { LinkFaultCommand } from './linkFaults';
import { leaveReplicaSet } from './replicaSet';

/** a timer the control plane set; the shell hands it back through {@link ControlPlane.fire} */
export type ControlTimer =
  /** a hang with a duration ends (if the node is still silent from the same hang) */
  | { readonly kind: 'hangEnds'; readonly node: NodeId; readonly silence: number }
  /** modelled detection: the one check at which the rule can declare the node dead */
  | { readonly kind: 'detectionCheck'; readonly node: NodeId; readonly incarnation: number; readonly silence: number }
  /** a catch-up's copy time is over */
  | { readonly kind: 'catchUpDone'; readonly node: NodeId; readonly incarnation: number; readonly silence: number; readonly segments: readonly number[]; readonly handBack: boolean }
  /** a migration's copy time is over: its handoff starts */
  | { readonly kind: 'migrationCopied'; readonly joiner: NodeId; readonly segment: number; readonly source: NodeId }
  /** the window after a handback flip closes: the segments are stable again */
  | { readonly kind: 'handoffWindowEnds'; readonly node: NodeId; readonly segments: readonly number[] }
  /** a handoff waited {@link HANDOFF_TIMEOUT_MS} for its caught-up reports */
  | { readonly kind: 'handoffTimeout'; readonly handoff: number };

/** what an input decided, for the shell to carry out (in order) */
export type ControlOutput =
  | { readonly kind: 'event'; readonly event: ClusterEvent }
  | { readonly kind: 'timer'; readonly afterMs: number; readonly timer: ControlTimer }
  /** catch-up: `to` receives a copy of `from`'s `segment` and, from then on, every write to it */
  | { readonly kind: 'copy'; readonly from: NodeId; readonly to: NodeId; readonly segment: number }
  /** a handoff's fence (`handoff.ts`): the shell reports {@link ControlPlane.caughtUp} when `to` holds the final state */
  | ({ readonly kind: 'fence' } & FenceCommand)
  /** an abandoned handoff: the fenced old owner serves the segment again */
  | { readonly kind: 'unfence'; readonly node: NodeId; readonly segment: number }
  /** a flip: `node` owns `segments` now (live: it hears of the new view before the others; fences of their old owners settle with it) */
  | { readonly kind: 'activated'; readonly node: NodeId; readonly segments: readonly number[] }
  /** a fault on `node`'s client link (`linkFaults.ts`) */
  | { readonly kind: 'link'; readonly node: NodeId; readonly cmd: LinkFaultCommand }
  /** `node` answers again after a silence (resume, rejoin): requests queued before it are gone */
  | { readonly kind: 'speaksAgain'; readonly node: NodeId };

export interface ControlPlaneOptions {
  /**
   * `modelled` (simulation): the control plane learns of a crash or hang
   * and sets the one detection check the heartbeat model calls for.
   * `external` (live): heartbeats arrive ({@link ControlPlane.beat}) and the
   * shell asks for a check every heartbeatMs ({@link ControlPlane.check}).
   */
  readonly detection?: 'modelled' | 'external';
  /**
   * live keys `node` holds for `segment` (drives migration / catch-up
   * durations): a read of the data plane — the simulation's stores, or the
   * key counts live nodes report with their heartbeats.
   */
  readonly keyCount?: (node: NodeId, segment: number) => number;
}

/** a rebalance in progress: the joiner's plan and how far it got */
interface Rebalance {
  readonly plan: readonly number[];
  next: number;
  running: number;
}

export class ControlPlane {
  /** each node's heartbeat phase within a period, ms */
  private readonly phases: number[] = [];
  /** the failure-detection rule (both shells) */
  private readonly detector: FailureDetector;
  private readonly detection: 'modelled' | 'external';
  private readonly keyCount: (node: NodeId, segment: number) => number;
  /** members added by scale-out that have not reached their share of segments yet */
  private readonly joiners = new Set<NodeId>();
  /** joiners with a rebalance in progress */
  private readonly rebalancing = new Map<NodeId, Rebalance>();
  private readonly handoffs = new Handoffs();
  /** outputs decided since the shell last took them */
  private outbox: ControlOutput[] = [];
  /** the time of the input being handled */
  private now = 0;

  constructor(
    private readonly state: ControlState,
    private readonly rng: Rng,
    options: ControlPlaneOptions = {},
  ) {
    this.detection = options.detection ?? 'modelled';
    this.keyCount = options.keyCount ?? (() => 0);
    this.detector = new FailureDetector(state.config);
    for (let i = 0; i < state.nodes.length; i++) this.phases.push(rng.next() * state.config.heartbeatMs);
  }

  /** the outputs decided since the last call, in order (raft's Ready) */
  ready(): ControlOutput[] {
    const out = this.outbox;
    this.outbox = [];
    return out;
  }

  private out(o: ControlOutput): void {
    this.outbox.push(o);
  }

  private timer(afterMs: number, timer: ControlTimer): void {
    this.out({ kind: 'timer', afterMs, timer });
  }

  // ── inputs ──────────────────────────────────────────────────────────────

  /** announces the initial topology */
  announce(now: number): void {
    this.now = now;
    this.topology('initial', 0, this.state.segments.map((_, i) => i));
  }

  /** a fault, now (what each kind does: the fault registry, `faults.ts`) */
  apply(f: FaultCommand, now: number): void {
    this.now = now;
    if (FAULTS[f.action].node === 'required') this.need(f);
    FAULTS[f.action].apply(this, f);
  }

  /** a heartbeat from `node` (live: as it arrives) */
  beat(node: NodeId, now: number): void {
    this.detector.beat(node, now);
  }

  /** a timer this control plane set fires */
  fire(t: ControlTimer, now: number): void {
    this.now = now;
    switch (t.kind) {
      case 'hangEnds': {
        const n = this.state.node(t.node);
        if (n.status === 'hung' && n.silence === t.silence) this.resume(t.node);
        return;
      }
      case 'detectionCheck': {
        const n = this.state.node(t.node);
        const stillSilent = n.incarnation === t.incarnation && n.silence === t.silence;
        if ((n.status === 'down' || n.status === 'hung') && !n.declaredDead && stillSilent && this.detector.isDead(t.node, now)) this.declareDead(t.node);
        return;
      }
      case 'catchUpDone': {
        const n = this.state.node(t.node);
        if (n.incarnation !== t.incarnation || n.silence !== t.silence || n.status !== 'recovering') return;
        this.finishCatchUp(t.node, t.segments, t.handBack);
        return;
      }
      case 'migrationCopied':
        this.migrationCopied(t.joiner, t.segment, t.source);
        return;
      case 'handoffWindowEnds':
        for (const s of t.segments) {
          const seg = this.state.segment(s);
          if (seg.phase === 'transitioning') seg.phase = 'stable';
        }
        this.state.touch();
        this.topology('handoffEnd', t.node, t.segments);
        return;
      case 'handoffTimeout': {
        const done = this.handoffs.timedOut(t.handoff);
        if (done !== null) this.handoffCompleted(done);
        return;
      }
    }
  }

  /** the new owner of a handoff's `segment` holds the fenced owner's final state */
  caughtUp(handoff: number, segment: number, now: number): void {
    this.now = now;
    const done = this.handoffs.caughtUp(handoff, segment);
    if (done !== null) this.handoffCompleted(done);
  }

  private need(f: FaultCommand): NodeId {
    if (f.node === undefined || f.node >= this.state.nodes.length) {
      throw new Error(`${f.action}: node ${f.node ?? '(none)'} does not exist (nodes 0..${this.state.nodes.length - 1})`);
    }
    return f.node;
  }

  /** the node a failback without a node brings back: the first one that is down (or declared dead, or hung); -1 if none */
  firstDown(): NodeId {
    const n = this.state.nodes.find(failbackCandidate);
    return n === undefined ? -1 : n.id;
  }

  /** a fault that does nothing now: its event says why */
  private ignored(action: FaultAction, node: NodeId, why: string): void {
    this.fault(action, node, [], `${IGNORED_FAULT}${why}`);
  }

  private fault(action: FaultAction, node: NodeId, segments: readonly number[], detail?: string, durationMs?: number): void {
    this.out({ kind: 'event', event: { t: this.now, type: 'fault', action, node, segments, ...(detail ? { detail } : {}), ...(durationMs !== undefined ? { durationMs } : {}) } });
  }

  private topology(change: TopologyChange, node: NodeId, segments: readonly number[]): void {
    this.out({ kind: 'event', event: { t: this.now, type: 'topology', epoch: this.state.epoch, change, node, segments } });
  }

  // ── failover ────────────────────────────────────────────────────────────

  /** failover: the node crashes */
  crash(node: NodeId): void {
    const n = this.state.node(node);
    if (!nodeFaultActs('failover', n)) {
      this.ignored('failover', node, 'node is already down');
      return;
    }
    // a hung node that crashes has been silent since its hang: its last beat stays the one before the hang
    const silentSince = n.status === 'hung';
    n.status = 'down';
    n.incarnation++;
    this.fault('failover', node, this.state.ownedBy(node));
    this.silenced(node);
    this.scheduleDetection(node, !silentSince);
  }

  /** a node that crashed or hung abandons its part in open handoffs (`handoff.ts`) */
  private silenced(node: NodeId): void {
    for (const done of this.handoffs.silenced(node)) this.handoffCompleted(done);
  }

  hang(node: NodeId, durationMs?: number): void {
    const n = this.state.node(node);
    if (!nodeFaultActs('hang', n)) {
      this.ignored('hang', node, `node is ${n.status}`);
      return;
    }
    n.status = 'hung';
    this.fault('hang', node, this.state.ownedBy(node), durationMs !== undefined ? `for ${seconds(durationMs)}` : undefined, durationMs);
    this.silenced(node);
    this.scheduleDetection(node);
    if (durationMs !== undefined) this.timer(durationMs, { kind: 'hangEnds', node, silence: n.silence });
  }

  resume(node: NodeId): void {
    const n = this.state.node(node);
    if (!nodeFaultActs('resume', n)) {
      this.ignored('resume', node, `node is ${n.status}`);
      return;
    }
    n.silence++;
    this.detector.beat(node, this.now); // it speaks again
    if (n.declaredDead) {
      this.fault('resume', node, [], 'was declared dead: rejoins');
      this.rejoin(node);
    } else {
      n.status = 'up';
      this.out({ kind: 'speaksAgain', node });
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
  private scheduleDetection(node: NodeId, wentSilentNow = true): void {
    if (this.detection === 'external') return;
    const hb = this.state.config.heartbeatMs;
    const now = this.now;
    const phase = this.phases[node] ?? 0;
    if (wentSilentNow) this.detector.beat(node, Math.floor((now - phase) / hb) * hb + phase);
    const checkAt = this.detector.nextCheckAt(this.detector.deadFrom(node));
    const { incarnation, silence } = this.state.node(node);
    this.timer(Math.max(0, checkAt - now), { kind: 'detectionCheck', node, incarnation, silence });
  }

  /**
   * A detector check now (live: every heartbeatMs): declares dead every
   * member the rule says is; a member declared dead whose heartbeats came
   * back (a stalled worker, not a crash) rejoins like a resumed one.
   */
  check(now: number): void {
    this.now = now;
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
  private declareDead(node: NodeId): void {
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
  replicaLost(segment: number, replica: NodeId, now: number): void {
    this.now = now;
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
   * hung or down (the detector found no serving replica to promote): now
   * that it answers again — resumed, or restarted and caught up — it is
   * promoted (one epoch for the batch).
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
      this.ignored('failback', Math.max(node, 0), 'no node is down');
      return;
    }
    const n = this.state.node(node);
    if (!nodeFaultActs('failback', n)) {
      this.ignored('failback', node, `node is ${n.status} and was not failed over`);
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
    this.detector.beat(node, this.now); // it speaks again
    n.status = 'recovering';
    this.out({ kind: 'speaksAgain', node });
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
    const keys = toSync.reduce((sum, s) => sum + this.keyCount(st.segment(s).owner, s), 0);
    const { catchUpBaseMs, catchUpMsPerKey } = st.config;
    this.topology('catchUpStart', node, toSync);
    const { incarnation, silence } = n;
    this.timer(catchUpBaseMs + keys * catchUpMsPerKey, { kind: 'catchUpDone', node, incarnation, silence, segments: toSync, handBack });
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
      this.out({ kind: 'copy', from: seg.owner, to: node, segment: s });
      seg.replicas.push(node);
      synced.push(s);
    }
    st.node(node).status = 'up';
    st.touch();
    this.topology('catchUpEnd', node, synced);
    // a restarted member still in the replica set of a segment that lost its owner meanwhile (it crashed
    // too, and came back before it was declared dead) holds that segment's acknowledged writes: promoted
    this.promoteOrphans(node);
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
    this.startHandoff(node, moves, { kind: 'handBack' });
  }

  /** fences the old owners (`handoff.ts`); completes on the caught-up reports, a silence or the timeout */
  private startHandoff(to: NodeId, moves: readonly SegmentMove[], purpose: Parameters<Handoffs['start']>[2]): void {
    const { id, fences } = this.handoffs.start(to, moves, purpose);
    for (const f of fences) this.out({ kind: 'fence', ...f });
    this.timer(HANDOFF_TIMEOUT_MS, { kind: 'handoffTimeout', handoff: id });
  }

  private handoffCompleted(h: CompletedHandoff): void {
    if (h.purpose.kind === 'handBack') this.handBack(h.to, h.moves, h.caughtUp);
    else this.migrated(h.to, h.moves[0] as SegmentMove, h.caughtUp);
    // fenced owners that keep their segment (abandoned, or refused) serve it again
    for (const m of h.moves) if (this.state.segment(m.segment).owner !== h.to) this.out({ kind: 'unfence', node: m.from, segment: m.segment });
    this.state.touch();
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
    this.out({ kind: 'activated', node, segments: handed });
    this.timer(st.config.handoffMs, { kind: 'handoffWindowEnds', node, segments: handed });
  }

  // ── scale-out ───────────────────────────────────────────────────────────

  scaleOut(): void {
    const st = this.state;
    if (st.nodes.length >= MAX_CLUSTER_NODES) {
      this.ignored('scaleOut', st.nodes.length - 1, `the cluster has ${st.nodes.length} nodes, the most it may have (${MAX_CLUSTER_NODES})`);
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
    this.rebalancing.set(joiner, { plan, next: 0, running: 0 });
    this.startMigrations(joiner);
  }

  private startMigrations(joiner: NodeId): void {
    const st = this.state;
    const r = this.rebalancing.get(joiner);
    if (r === undefined) return;
    while (r.running < st.config.migrationConcurrency && r.next < r.plan.length) {
      const s = r.plan[r.next++] as number;
      const seg = st.segment(s);
      if (seg.phase !== 'stable' || seg.owner === NO_OWNER || !st.isServing(seg.owner)) continue;
      r.running++;
      this.migrate(joiner, s);
    }
    if (r.running > 0 || r.next < r.plan.length) return;
    this.rebalancing.delete(joiner);
    const n = st.node(joiner);
    if (n.status === 'joining') n.status = 'up';
    if (st.ownedBy(joiner).length >= this.share()) this.joiners.delete(joiner);
  }

  /** one migration of the joiner's plan ended (moved or abandoned) */
  private migrationDone(joiner: NodeId): void {
    const r = this.rebalancing.get(joiner);
    if (r === undefined) return;
    r.running--;
    this.startMigrations(joiner);
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

  private migrate(joiner: NodeId, s: number): void {
    const st = this.state;
    const seg = st.segment(s);
    const source = seg.owner;
    seg.phase = 'migrating';
    st.touch();
    this.topology('migrationStart', joiner, [s]);
    const { migrationBaseMs, migrationMsPerKey } = st.config;
    this.timer(migrationBaseMs + this.keyCount(source, s) * migrationMsPerKey, { kind: 'migrationCopied', joiner, segment: s, source });
  }

  /** the migration still stands: the segment is migrating from `source` and the joiner serves */
  private stillPlanned(joiner: NodeId, s: number, source: NodeId): boolean {
    const seg = this.state.segment(s);
    return seg.phase === 'migrating' && seg.owner === source && this.state.isServing(joiner);
  }

  private abandonMigration(joiner: NodeId, s: number): void {
    const seg = this.state.segment(s);
    if (seg.phase === 'migrating') {
      seg.phase = 'stable';
      this.state.touch();
    }
    this.migrationDone(joiner);
  }

  /** the copy is done: hand the segment over (fence, the joiner catches up, flip) */
  private migrationCopied(joiner: NodeId, s: number, source: NodeId): void {
    if (!this.stillPlanned(joiner, s, source) || !this.state.isServing(source)) return this.abandonMigration(joiner, s);
    this.startHandoff(joiner, [{ segment: s, from: source }], { kind: 'migrate' });
  }

  private migrated(joiner: NodeId, move: SegmentMove, caughtUp: readonly number[]): void {
    const st = this.state;
    const { segment: s, from: source } = move;
    if (!caughtUp.includes(s) || !this.stillPlanned(joiner, s, source)) return this.abandonMigration(joiner, s);
    const seg = st.segment(s);
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
    this.out({ kind: 'activated', node: joiner, segments: [s] });
    this.migrationDone(joiner);
  }

  // ── link faults ─────────────────────────────────────────────────────────

  /** a fault on the node's client link (`linkFaults.ts`: the same state and rules in both shells) */
  linkFault(node: NodeId, action: FaultAction, cmd: LinkFaultCommand): void {
    this.out({ kind: 'link', node, cmd });
    this.fault(action, node, this.state.ownedBy(node), linkDetail(cmd), cmd.kind === 'heal' ? undefined : cmd.durationMs);
  }
}

/** a fault's duration in seconds, as the page gives times: 10000 → "10 s", 2500 → "2.5 s", 1250 → "1.25 s" */
const seconds = (ms: number): string => `${+(ms / 1000).toFixed(3)} s`;
/** a probability as a share: 0.5 → "50 %", 1 → "100 %", 0.125 → "12.5 %" */
const share = (p: number): string => `${+(p * 100).toPrecision(3)} %`;

/** the fault event's detail of a link fault ("20× latency for 10 s", "50 % of acks lost for 10 s") */
function linkDetail(cmd: LinkFaultCommand): string | undefined {
  switch (cmd.kind) {
    case 'slow':
      return `${cmd.factor}× latency for ${seconds(cmd.durationMs)}`;
    case 'lostAck':
      return `${share(cmd.probability)} of acks lost for ${seconds(cmd.durationMs)}`;
    case 'partition':
      return `${cmd.direction === 'in' ? 'requests to the node' : 'replies of the node'} lost for ${seconds(cmd.durationMs)}`;
    case 'garble':
      return `${share(cmd.probability)} of replies garbled for ${seconds(cmd.durationMs)}`;
    case 'heal':
      return undefined;
  }
}
