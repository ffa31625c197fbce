/**
 * The one vanilla store of the dashboard, cut into slices (zustand slices
 * pattern). Framework-free: tests drive it without React; the UI binds it
 * with `useStore` through {@link ./StoreContext}.
 */
import { createStore } from 'zustand/vanilla';
import type { SessionListener } from '../bridge/types';
import { createClientSlice } from './clientSlice';
import { createClusterSlice } from './clusterSlice';
import { createControlsSlice } from './controlsSlice';
import type { DashboardState, DashboardStore } from './storeTypes';
import { createTelemetrySlice } from './telemetrySlice';

export type { DashboardState, DashboardStore } from './storeTypes';

export function createDashboardStore(): DashboardStore {
  return createStore<DashboardState>()((...a) => ({
    ...createClusterSlice(...a),
    ...createClientSlice(...a),
    ...createControlsSlice(...a),
    ...createTelemetrySlice(...a),
  }));
}

/** What a session (the live bridge or the dev feed) pushes into: the store. */
export function createStoreListener(store: DashboardStore): SessionListener {
  return {
    onBatch: (batch) => store.getState().ingestBatch(batch),
    onClusterView: (view) => {
      store.getState().setClusterView(view);
      store.getState().reportAvailability(view);
    },
    onWriteAudit: (audit) => store.getState().setWriteAudit(audit),
    onClientView: (view) => store.getState().setClientView(view),
    onError: (message) => store.getState().reportSessionError(message),
    onClusterVersions: (asOfMs, versions) => store.getState().checkFinalData(asOfMs, versions),
  };
}
