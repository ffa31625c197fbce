/** The store's full state: the slices side by side (zustand slices pattern). */
import type { StateCreator, StoreApi } from 'zustand/vanilla';
import type { ClientSlice } from './clientSlice';
import type { ClusterSlice } from './clusterSlice';
import type { ControlsSlice } from './controlsSlice';
import type { TelemetrySlice } from './telemetrySlice';

export type DashboardState = ClusterSlice & ClientSlice & TelemetrySlice & ControlsSlice;
export type DashboardStore = StoreApi<DashboardState>;
/** a slice creator that sees (and may call) the whole store */
export type SliceCreator<S> = StateCreator<DashboardState, [], [], S>;
