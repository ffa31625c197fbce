/**
 * Deterministic replay, recorded once: a scenario runs in the simulation
 * engine inside this worker exactly one time (or an imported event log is
 * taken as it is); its events are kept on a columnar tape and indexed, so
 * the time cursor moves in either direction without re-running anything.
 * The timeline gets the whole run once (columnar batches, like a live
 * session); the panels get a frame — the store's snapshot, fault markers
 * and views at the cursor — per move. Compare records its two runs here too
 * and moves both with one cursor. The logic is `src/ui/replay/replayRoom.ts`.
 */
import * as Comlink from 'comlink';
import type { Scenario } from '../src/core/sim/scenario';
import type { EventBatch } from '../src/core/telemetry/eventCodec';
import { ReplayRoom, type Post } from '../src/ui/replay/replayRoom';

export type { ReplayMessage, ReplayStatus } from '../src/ui/replay/replayRoom';
export type { RunInfo } from '../src/ui/replay/recordedRuns';
export type { SeekFrame } from '../src/ui/replay/seekIndex';

const room = new ReplayRoom({
  now: () => performance.now(),
  every: (ms, fn) => {
    const id = setInterval(fn, ms);
    return () => clearInterval(id);
  },
});
const poster = (port: MessagePort): Post => (msg, transfer) => port.postMessage(msg, transfer ?? []);

const api = {
  load: (scenario: Scenario, port: MessagePort) => room.load(scenario, poster(port)),
  loadBatches: (scenario: Scenario, batches: readonly EventBatch[], port: MessagePort) => room.loadBatches(scenario, batches, poster(port)),
  play: (speed: number) => room.play(speed),
  pause: () => room.pause(),
  step: (ms?: number) => room.step(ms),
  seek: (t: number) => room.seek(t),
  exportNdjson: () => room.exportNdjson(),
  exportTrace: () => room.exportTrace(),
  summarize: (scenario: Scenario) => room.summarize(scenario),
  record: (scenario: Scenario) => room.record(scenario),
  frameAt: (id: number, t: number) => room.frameAt(id, t),
  framesAt: (ids: readonly number[], t: number) => room.framesAt(ids, t),
  release: (id: number) => room.release(id),
  dispose: () => room.dispose(),
};

export type ReplayWorkerApi = typeof api;
Comlink.expose(api);
