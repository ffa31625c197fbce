/**
 * The simulation's control shell: the one control-plane core
 * (`cluster/controlPlane.ts`) driven on virtual time, its data-plane
 * commands carried out on the simulated nodes (`simCluster.ts`):
 *
 * - a catch-up copy is a copy of the source's store;
 * - a handoff's fence marks the old owner fenced; each fenced segment's
 *   final state (a snapshot of its keys, as a live node sends it) reaches
 *   the new owner a replication round trip (`replicationMs`) plus its keys'
 *   copy time (`migrationMsPerKey` each, as in a migration copy) later, and
 *   the new owner reports it caught up — unless the old owner crashed, hung
 *   or restarted meanwhile, in which case it never sent it (the core has
 *   abandoned that move already: `cluster/handoff.ts`). So the fence lasts
 *   ≈ 15 ms for a segment of 30 keys, as long as the live workers' messages
 *   take; a refresh that lands inside it fetches the map from before the
 *   flip, and the client's 500 ms debounce then keeps that map;
 * - a flip settles the fences of the segments' old owners (as a live node
 *   does when it hears of the new view); an abandoned move lifts its fence;
 * - link faults go to the node's link; a node that speaks again starts
 *   with an empty queue; a crash notes its time on the node, so the
 *   network loses the replies the node had not sent yet.
 */
import { ControlDriver, type DataPlane } from '../cluster/controlDriver';
import { ControlPlane } from '../cluster/controlPlane';
import type { FaultCommand } from '../cluster/faults';
import { applyLinkFault } from '../cluster/linkFaults';
import type { NodeId } from '../domain/clusterMap';
import type { Rng } from '../rng';
import type { TelemetrySink } from '../telemetry/events';
import type { Scheduler } from '../time/scheduler';
import type { SimCluster, SimNode } from './simCluster';

interface Delivery {
  readonly from: NodeId;
  readonly to: NodeId;
  readonly segment: number;
  /** the old owner's incarnation when it was fenced (a restarted node never sends the old one's state) */
  readonly incarnation: number;
}

/** the node's open hang, if any, ends at `now` (`SimNode.hangs`) */
function endHang(sim: SimNode, now: number): void {
  const h = sim.hangs;
  if (h.length > 0 && h[h.length - 1] === Infinity) h[h.length - 1] = now;
}

export class SimControl {
  readonly core: ControlPlane;
  private readonly driver: ControlDriver;

  constructor(
    private readonly cluster: SimCluster,
    private readonly scheduler: Scheduler,
    rng: Rng,
    sink?: TelemetrySink,
  ) {
    this.core = new ControlPlane(cluster.control, rng, { detection: 'modelled', keyCount: (node, segment) => cluster.keyCount(node, segment) });
    this.driver = new ControlDriver(this.core, scheduler, sink, this.dataPlane());
  }

  /** announces the initial topology */
  announce(): void {
    this.driver.announce();
  }

  /** a write's owner waited `REPLICATION_TIMEOUT_MS` for `replica`'s ack in vain (the network's report, as a live owner's) */
  replicaLost(segment: number, replica: NodeId): void {
    this.driver.replicaLost(segment, replica);
  }

  /** carries out one fault now; a node it crashed notes the time, a node it hung the hang's start (a resume or a crash ends it) (its unsent replies are lost or held: `simNetwork.ts`) */
  apply(f: FaultCommand): void {
    const nodes = this.cluster.control.nodes;
    const before = nodes.map((n) => n.incarnation);
    const wasHung = nodes.map((n) => n.status === 'hung');
    this.driver.apply(f);
    const now = this.scheduler.now();
    for (const n of nodes) {
      if (n.status === 'down' && n.incarnation !== before[n.id]) {
        const sim = this.cluster.node(n.id);
        sim.crashedAt = now;
        endHang(sim, now); // a hung node that crashes: its hang ends with it
      } else if (n.status === 'hung' && wasHung[n.id] !== true) this.cluster.node(n.id).hangs.push(now, Infinity);
    }
  }

  private dataPlane(): DataPlane {
    const cluster = this.cluster;
    return {
      copy: (from, to, segment) => cluster.copySegment(from, to, segment),
      fence: (handoff, from, to, segment) => {
        cluster.node(from).fenced[segment] = 1;
        const d: Delivery = { from, to, segment, incarnation: cluster.control.node(from).incarnation };
        this.scheduler.setTimer(cluster.config.replicationMs + cluster.keyCount(from, segment) * cluster.config.migrationMsPerKey, () => this.deliver(handoff, d));
      },
      unfence: (node, segment) => {
        cluster.node(node).fenced[segment] = 0;
      },
      activated: (_node, segments) => {
        for (const n of cluster.control.nodes) for (const s of segments) cluster.node(n.id).fenced[s] = 0;
      },
      link: (node, cmd) => applyLinkFault(cluster.node(node).link, cmd, this.scheduler.now()),
      speaksAgain: (node) => {
        // a resume (or a rejoin after one): queued requests are gone, and a hang ends
        const sim = cluster.node(node);
        const now = this.scheduler.now();
        sim.busyUntil = now;
        endHang(sim, now);
      },
    };
  }

  /** a fenced owner's final state of one segment arrives: the new owner catches up and reports it */
  private deliver(handoff: number, d: Delivery): void {
    const st = this.cluster.control;
    if (!st.isServing(d.from) || st.node(d.from).incarnation !== d.incarnation) return;
    this.cluster.copySegment(d.from, d.to, d.segment);
    this.driver.caughtUp(handoff, d.segment);
  }
}
