/**
 * Binds the vanilla store to React. Panels read through `useDashboard`
 * with a selector that picks the smallest slice (`useShallow` for objects)
 * and derive chart rows with the named selectors in `selectors.ts`.
 */
import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useStore } from 'zustand';
import type { PauseSpan } from './snapshot';
import type { DashboardState, DashboardStore } from './storeTypes';

const StoreContext = createContext<DashboardStore | null>(null);
/** the workload's pauses, for every time chart under a store (none elsewhere: Compare's charts) */
const PauseSpansContext = createContext<readonly PauseSpan[]>([]);

export function StoreProvider({ store, children }: { store: DashboardStore; children: ReactNode }) {
  return (
    <StoreContext.Provider value={store}>
      <PausesOf store={store}>{children}</PausesOf>
    </StoreContext.Provider>
  );
}

function PausesOf({ store, children }: { store: DashboardStore; children: ReactNode }) {
  const spans = useStore(store, (s) => s.pauseSpans);
  return <PauseSpansContext.Provider value={spans}>{children}</PauseSpansContext.Provider>;
}

/** the workload's pauses the charts shade (Pause … Start); empty outside a store */
export function usePauseSpans(): readonly PauseSpan[] {
  return useContext(PauseSpansContext);
}

export function useDashboardStore(): DashboardStore {
  const store = useContext(StoreContext);
  if (store === null) throw new Error('useDashboardStore outside <StoreProvider>');
  return store;
}

export function useDashboard<T>(selector: (s: DashboardState) => T): T {
  return useStore(useDashboardStore(), selector);
}

/** ms between snapshot publishes: chart data changes at most this often (≤ 4×/s) */
export const PUBLISH_INTERVAL_MS = 500;

/** publishes the telemetry snapshot on a timer (not per batch: each chart update costs tens of ms) */
export function usePublisher(intervalMs = PUBLISH_INTERVAL_MS): void {
  const store = useDashboardStore();
  useEffect(() => {
    const id = setInterval(() => store.getState().publish(), intervalMs);
    return () => clearInterval(id);
  }, [store, intervalMs]);
}
