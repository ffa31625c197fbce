import type { ClusterView } from '../bridge/types';
import type { FaultMarker } from './snapshot';
import type { SliceCreator } from './storeTypes';

/** The cluster's truth (latest view) and the faults injected this session. */
export interface ClusterSlice {
  /** latest view pushed by the session; null before the first one */
  cluster: ClusterView | null;
  /** faults from `fault` events, oldest first (bounded, replaced on change) */
  faultMarkers: readonly FaultMarker[];
  setClusterView(view: ClusterView): void;
  resetCluster(): void;
}

export const createClusterSlice: SliceCreator<ClusterSlice> = (set) => ({
  cluster: null,
  faultMarkers: [],
  setClusterView: (view) => set({ cluster: view }),
  resetCluster: () => set({ cluster: null, faultMarkers: [] }),
});
