/**
 * The views of an imported events file at any cursor: the cluster view
 * rebuilt from the file's own topology and fault events (or an empty view
 * whose note names what the file lacks for one). The file carries no
 * client view. Same shape as a recorded run's ViewTimeline, so the seek
 * index treats both alike.
 */
import type { ClientView, ClusterView } from '../../core/cluster/views';
import type { RunViews } from '../../core/replay/recordRun';
import { clusterViewFromEvents, type TopologyFacts } from '../../core/replay/topologyView';
import type { EventBatch } from '../../core/telemetry/eventCodec';
import { ColumnarLog } from './columnarLog';

export class TopologyViews implements RunViews {
  private readonly facts: TopologyFacts;
  /** the decoded topology and fault events (a few per fault): what this costs */
  readonly bytes: number;

  constructor(batches: readonly EventBatch[]) {
    this.facts = new ColumnarLog(batches).topologyFacts();
    this.bytes = this.facts.cluster.length * 256;
  }

  clusterAt(t: number): ClusterView {
    const r = clusterViewFromEvents(this.facts, t);
    if (r.view === null) return { t, epoch: 0, nodes: [], owners: [], phases: [], replicas: [], note: r.lacks ?? 'no cluster view' };
    return { ...r.view, ...(r.inferred ? { note: r.inferred } : {}) };
  }

  clientAt(): ClientView | null {
    return null;
  }
}
