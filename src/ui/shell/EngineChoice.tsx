import { useStore } from 'zustand';
import type { LiveHandle } from './liveHandle';

/** the Live tab's engine: simulated in the browser, or Redis Cluster on this machine (one line when it cannot run here) */
export function EngineChoice({ live }: { live: LiveHandle }) {
  const { kind, real, phase, detail } = useStore(live.engine);
  const redisOk = real.state === 'available';
  return (
    <div className="engine-choice" role="radiogroup" aria-label="Engine">
      <span className="engine-label">Engine</span>
      <label>
        <input type="radio" name="engine" value="browser" checked={kind === 'browser'} onChange={() => live.setEngine('browser')} />
        simulated in the browser
      </label>
      <label title={redisOk ? 'a real Redis Cluster (redis-server) started by the local server; Failover is kill -9 of the node' : undefined}>
        <input type="radio" name="engine" value="redis" checked={kind === 'redis'} disabled={!redisOk} onChange={() => live.setEngine('redis')} />
        Redis Cluster on this machine
      </label>
      {real.state === 'unavailable' ? (
        <span className="engine-note" role="note">
          {real.line}
        </span>
      ) : real.state === 'checking' ? (
        <span className="engine-note">checking for redis-server…</span>
      ) : kind === 'redis' ? (
        <span className="engine-note" aria-live="polite" data-phase={phase ?? ''}>
          {phase === 'idle' ? 'press Start to build the cluster (a few seconds)' : detail || phase}
        </span>
      ) : null}
    </div>
  );
}
