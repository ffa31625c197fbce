/**
 * Which engine the Live tab runs on: simulated in the browser (the workers)
 * or a Redis Cluster on this machine (the server's real-engine bridge). The
 * page learns whether the second exists from the server it came from
 * (`GET /session`, then `GET /real-engine/status`); a static host, a server
 * without the bridge or a machine without redis-server each say so in one line.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { fetchServerSession } from '../../platform/serverSession';
import { REAL_ENGINE_EXTENSION, REAL_ENGINE_STATUS_PATH, realEngineStatusSchema, type EnginePhase, type RealEngineStatus } from '../../platform/realEngineProtocol';

export type EngineKind = 'browser' | 'redis';

/** what the page knows of the real engine */
export type RealEngineAvailability =
  | { readonly state: 'checking' }
  | { readonly state: 'unavailable'; readonly line: string }
  | { readonly state: 'available'; readonly token: string; readonly status: RealEngineStatus };

export interface EngineChoiceState {
  readonly kind: EngineKind;
  readonly real: RealEngineAvailability;
  /** the real engine's progress (null on the simulated engine) */
  readonly phase: EnginePhase | null;
  readonly detail: string;
  /** rises whenever the session object changes (the Live view re-renders with the new one) */
  readonly version: number;
}

export type EngineChoiceStore = StoreApi<EngineChoiceState>;

export function createEngineChoiceStore(): EngineChoiceStore {
  return createStore<EngineChoiceState>()(() => ({ kind: 'browser', real: { state: 'checking' }, phase: null, detail: '', version: 0 }));
}

/** the real engine's availability, in one line when there is none */
export async function probeRealEngine(fetchImpl: typeof fetch = fetch): Promise<RealEngineAvailability> {
  const session = await fetchServerSession(fetchImpl);
  if (session === null || !session.extensions.includes(REAL_ENGINE_EXTENSION)) {
    return { state: 'unavailable', line: 'Redis Cluster on this machine needs the local server: run npm start (or npm run dev)' };
  }
  try {
    const res = await fetchImpl(REAL_ENGINE_STATUS_PATH, { cache: 'no-store', credentials: 'same-origin' });
    const status = realEngineStatusSchema.parse(await res.json());
    if (!status.available) return { state: 'unavailable', line: `Redis Cluster on this machine: ${status.reason ?? 'unavailable'}` };
    return { state: 'available', token: session.token, status };
  } catch {
    return { state: 'unavailable', line: 'Redis Cluster on this machine: the server did not say whether it can run it' };
  }
}
