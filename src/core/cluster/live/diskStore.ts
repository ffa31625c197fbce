import type { NodeId } from '../../domain/clusterMap';
import type { Entry } from '../segmentStore';
import type { SegmentEntries } from './protocol';

/**
 * The live nodes' disks, held outside the node workers (by the control
 * worker), so a node's committed data survives `terminate()`. Each node's
 * disk keeps, per segment, the newest entry of every key it applied (a
 * compacted write-ahead log: versions only grow, tombstones included).
 */
export class DiskStore {
  /** node → segment → key → entry */
  private readonly disks = new Map<NodeId, Map<string, Entry>[]>();

  constructor(private readonly segments: number) {}

  private disk(node: NodeId): Map<string, Entry>[] {
    let d = this.disks.get(node);
    if (d === undefined) {
      d = Array.from({ length: this.segments }, () => new Map<string, Entry>());
      this.disks.set(node, d);
    }
    return d;
  }

  /** makes one applied write durable (an older version never overwrites a newer one) */
  write(node: NodeId, segment: number, key: string, entry: Entry): void {
    const seg = this.disk(node)[segment] as Map<string, Entry>;
    const cur = seg.get(key);
    if (cur === undefined || cur.version < entry.version) seg.set(key, entry);
  }

  /** makes a loaded snapshot durable */
  merge(node: NodeId, segment: number, entries: SegmentEntries): void {
    for (const [key, entry] of entries) this.write(node, segment, key, entry);
  }

  /** what a restarted node replays: its non-empty segments */
  replay(node: NodeId): [number, SegmentEntries][] {
    const out: [number, SegmentEntries][] = [];
    this.disk(node).forEach((seg, s) => seg.size > 0 && out.push([s, [...seg]]));
    return out;
  }

  /** one node's durable copy of a segment */
  segment(node: NodeId, segment: number): ReadonlyMap<string, Entry> {
    return this.disk(node)[segment] as Map<string, Entry>;
  }
}
