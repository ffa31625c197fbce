import type { ClientView } from '../bridge/types';
import type { SliceCreator } from './storeTypes';

/**
 * The client's cached map (what it routes by). Staleness per segment (client
 * owner ≠ cluster owner) is derived by `selectSegmentCells`, not stored.
 */
export interface ClientSlice {
  /** latest view pushed by the session; null before the first one */
  client: ClientView | null;
  setClientView(view: ClientView): void;
  resetClient(): void;
}

export const createClientSlice: SliceCreator<ClientSlice> = (set) => ({
  client: null,
  setClientView: (view) => set({ client: view }),
  resetClient: () => set({ client: null }),
});
