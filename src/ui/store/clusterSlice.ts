import type { WriteAuditReport } from '../../core/sim/applyTracker';
import type { ClusterView } from '../bridge/types';
import type { FaultMarker } from './snapshot';
import type { SliceCreator } from './storeTypes';

/** The cluster's truth (latest view) and the faults injected this session. */
export interface ClusterSlice {
  /** latest view pushed by the session; null before the first one */
  cluster: ClusterView | null;
  /** faults from `fault` events, oldest first (bounded, replaced on change) */
  faultMarkers: readonly FaultMarker[];
  /** the ambiguous-write audit (replay: the engine's ground truth of applies); null when the session has none (live) */
  writeAudit: WriteAuditReport | null;
  setClusterView(view: ClusterView): void;
  setWriteAudit(audit: WriteAuditReport | null): void;
  resetCluster(): void;
}

export const createClusterSlice: SliceCreator<ClusterSlice> = (set) => ({
  cluster: null,
  faultMarkers: [],
  writeAudit: null,
  setClusterView: (view) => set({ cluster: view }),
  setWriteAudit: (audit) => set({ writeAudit: audit }),
  resetCluster: () => set({ cluster: null, faultMarkers: [], writeAudit: null }),
});
