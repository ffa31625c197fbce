/** Node identity: a small integer (0, 1, 2, …). */
export type NodeId = number;

/** Marker for "no active owner" in {@link ClusterMap.owners}. */
export const NO_OWNER = -1;

/**
 * Segment → active owner with a monotonically increasing epoch. The cluster
 * holds the truth; a client holds a cached copy that can be stale.
 */
export interface ClusterMap {
  /** rises on every ownership change */
  readonly epoch: number;
  /** active owner per segment (NO_OWNER when none) */
  readonly owners: readonly NodeId[];
  /** replica nodes per segment (synchronous copies) */
  readonly replicas: readonly (readonly NodeId[])[];
  /** cluster members the map knows of (where a client may fetch the map) */
  readonly nodes: readonly NodeId[];
}

/** The map a client has before its first refresh: nothing is routable. */
export function emptyMap(segmentCount: number, nodes: readonly NodeId[]): ClusterMap {
  return {
    epoch: 0,
    owners: new Array<NodeId>(segmentCount).fill(NO_OWNER),
    replicas: Array.from({ length: segmentCount }, () => []),
    nodes: [...nodes],
  };
}
