/**
 * The session the controls drive, handed down by the app (the dev SimFeed
 * or the live worker bridge): controls never import an implementation.
 */
import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { PlaygroundControls } from '../bridge/types';
import { useDashboardStore } from '../store/StoreContext';
import { createSessionActions, type SessionActions } from './sessionActions';

const ControlsContext = createContext<PlaygroundControls | null>(null);

export function ControlsProvider({ controls, children }: { controls: PlaygroundControls; children: ReactNode }) {
  return <ControlsContext.Provider value={controls}>{children}</ControlsContext.Provider>;
}

export function useControls(): PlaygroundControls {
  const c = useContext(ControlsContext);
  if (c === null) throw new Error('useControls outside <ControlsProvider>');
  return c;
}

/** validated actions over the session and the store */
export function useSessionActions(): SessionActions {
  const controls = useControls();
  const store = useDashboardStore();
  return useMemo(() => createSessionActions(controls, store), [controls, store]);
}
