/**
 * Zaris node ids ↔ Redis addresses for one run. The engine names its
 * servers 0, 1, 2, … (masters first, then replicas, then scale-out nodes);
 * an address first seen in a map or a redirection gets the next free id, so
 * every event names nodes with the same small integers as the simulation.
 */
import type { NodeId } from '../../core/domain/clusterMap';

export class NodeDirectory {
  private readonly byPort = new Map<number, NodeId>();
  private readonly byId = new Map<NodeId, number>();
  private next = 0;

  constructor(readonly host = '127.0.0.1') {}

  /** registers `port` as node `id` (engine-started servers) */
  add(id: NodeId, port: number): void {
    this.byPort.set(port, id);
    this.byId.set(id, port);
    this.next = Math.max(this.next, id + 1);
  }

  idOf(port: number): NodeId {
    let id = this.byPort.get(port);
    if (id === undefined) {
      id = this.next++;
      this.add(id, port);
    }
    return id;
  }

  portOf(id: NodeId): number | undefined {
    return this.byId.get(id);
  }

  /** the id the next new node gets */
  get nextId(): NodeId {
    return this.next;
  }

  ids(): NodeId[] {
    return [...this.byId.keys()].sort((a, b) => a - b);
  }
}
