/**
 * Wraps a live session so that it records itself (see SessionRecording):
 * fault presses and configuration changes go through here to the session,
 * and the session's event stream passes the recording on its way to the
 * store, which reads the moment each fault really fired.
 */
import { decodeEvent, type EventBatch } from '../../core/telemetry/eventCodec';
import { EVENT_TYPES, type FaultEvent } from '../../core/telemetry/events';
import type { PlaygroundControls, SessionListener } from '../bridge/types';
import type { SessionRecording } from './sessionRecording';

export function recordingControls(inner: PlaygroundControls, rec: SessionRecording): PlaygroundControls {
  return {
    ...(inner.unsupportedFaults !== undefined ? { unsupportedFaults: inner.unsupportedFaults } : {}),
    // at the session's own time where it keeps one: the newest event of a paused session is from before the pause
    start: async () => {
      const t = await inner.start();
      rec.started(typeof t === 'number' ? t : rec.lastT);
      return t;
    },
    pause: async () => {
      const t = await inner.pause();
      rec.pausedAt(typeof t === 'number' ? t : rec.lastT);
      return t;
    },
    configureClient: async (config) => {
      await inner.configureClient(config);
      rec.configured(config, rec.lastT);
    },
    setWorkload: async (workload) => {
      await inner.setWorkload(workload);
      rec.workloadSet(workload, rec.lastT);
    },
    fault: async (cmd) => {
      rec.pressed(cmd);
      try {
        await inner.fault(cmd);
      } catch (e) {
        rec.unpressed(cmd);
        throw e;
      }
    },
    loadScenario: async (scenario) => {
      rec.begin(scenario);
      await inner.loadScenario(scenario);
    },
    dispose: () => inner.dispose(),
  };
}

const FAULT_CODE = EVENT_TYPES.indexOf('fault');

/** passes batches to `inner` after the recording has read their time and fault events */
export function recordingListener(inner: SessionListener, rec: SessionRecording): SessionListener {
  return {
    onBatch: (batch: EventBatch) => {
      if (batch.n > 0) {
        rec.observe(batch.t[batch.n - 1] as number);
        for (let i = 0; i < batch.n; i++) if (batch.type[i] === FAULT_CODE) rec.faultSeen(decodeEvent(batch, i) as FaultEvent);
      }
      inner.onBatch(batch);
    },
    onClusterView: (v) => {
      rec.observe(v.t);
      inner.onClusterView(v);
    },
    onClientView: (v) => inner.onClientView(v),
    onError: (m) => inner.onError(m),
    onClusterVersions: (asOfMs, versions) => inner.onClusterVersions?.(asOfMs, versions),
    onWriteAudit: (audit) => inner.onWriteAudit(audit),
  };
}
