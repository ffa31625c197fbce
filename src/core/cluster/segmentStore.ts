/**
 * A node's copy of one segment: key → entry. Held by whoever holds data in
 * a shell — the simulation's truth (`sim/simCluster.ts`, one store per node
 * and segment), a live node (`NodeCore`, its own stores only), a node's disk
 * (`live/diskStore.ts`). The control plane holds none.
 */

/** A stored value; `value === null` is a tombstone (the key was deleted). */
export interface Entry {
  readonly value: string | null;
  readonly version: number;
}

export type SegmentStore = Map<string, Entry>;

/** number of live keys (tombstones excluded) in one copy of a segment */
export function liveKeys(store: ReadonlyMap<string, Entry>): number {
  let n = 0;
  for (const e of store.values()) if (e.value !== null) n++;
  return n;
}

/** a write to a copy that is not the owner's: applied unless this copy is already newer */
export function applyNewer(store: SegmentStore, key: string, entry: Entry): void {
  const cur = store.get(key);
  if (cur === undefined || cur.version < entry.version) store.set(key, entry);
}
