/**
 * The replay's header: the run's identity, the verdict at the cursor and
 * for the whole run (each labelled), what the recording holds, and the
 * headline figures at the cursor.
 */
import { useMemo } from 'react';
import { useStore } from 'zustand';
import { useShallow } from 'zustand/react/shallow';
import { KpiStrip } from '../KpiStrip';
import { selectWorkloadSummary } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import type { ReplayController } from './replayController';
import { RunIdentityBlock } from './RunIdentityBlock';
import { cursorVerdict, runVerdict, type VerdictLine } from './verdicts';
import type { ConfigChange } from '../../core/sim/scenario';
import { identityAtCursor, scheduledClient } from './identityAtCursor';

const MB = 1024 * 1024;

function Verdict({ label, line, testId }: { label: string; line: VerdictLine; testId: string }) {
  return (
    <span className={`verdict-line tone-${line.tone}`} data-testid={testId} data-tone={line.tone}>
      <span className="k">{label}</span> <span className={`badge ${line.tone}`}>{line.label}</span>
    </span>
  );
}

export function ReplayHeader({ ctl }: { ctl: ReplayController }) {
  const { run, info, budget, frameCursorMs, lastSeekMs, computeMs } = useStore(ctl.ui, useShallow((s) => ({ run: s.run, info: s.info, budget: s.budget, frameCursorMs: s.frameCursorMs, lastSeekMs: s.lastSeekMs, computeMs: s.frameComputeMs })));
  const { snap, workload, clientConfig, cluster } = useDashboard(useShallow((s) => ({ snap: s.snapshot, workload: s.workload, clientConfig: s.clientConfig, cluster: s.cluster })));
  const atCursor = useMemo(() => cursorVerdict(snap.invariants, budget), [snap, budget]);
  const whole = useMemo(() => runVerdict(info?.wholeRun ?? null), [info]);
  // the panels' time: the verdict is read from the same frame
  const cursorAt = `${((frameCursorMs ?? 0) / 1000).toFixed(2)} s`;
  return (
    <header className="app-header replay-header">
      <div className="brand">
        <h1>Replay</h1>
        <p className="tagline">recorded once · one time cursor</p>
        {run?.identity.source === 'live recording' ? (
          <p className="tagline replay-rerun" data-testid="replay-rerun-note">
            the live session's faults and changes, re-run in the deterministic engine: its figures are the engine's, not the session's
          </p>
        ) : null}
      </div>
      {run ? (
        <RunIdentityBlock
          identity={identityAtCursor(run.identity, scheduledClient(run.scenario, clientConfig), cluster)}
          {...(run.scenario ? { extra: withSchedule(selectWorkloadSummary(workload), run.scenario.changes) } : {})}
          badges={
            <span className="replay-verdicts" data-testid="replay-verdict">
              <Verdict label={`at the cursor (${cursorAt})`} line={atCursor} testId="replay-verdict-cursor" />
              <Verdict label="whole run" line={whole} testId="replay-verdict-run" />
            </span>
          }
        />
      ) : (
        <div className="identity k">nothing loaded</div>
      )}
      <div className="replay-memory k" data-testid="replay-memory" data-bytes={info?.memory.totalBytes ?? 0} data-memory={info ? JSON.stringify(info.memory) : '{}'} data-seek-ms={computeMs ?? ''}>
        {info
          ? `recorded once: ${info.events.toLocaleString('en-US')} events · ${(info.memory.totalBytes / MB).toFixed(0)} MB held (tape ${(info.memory.tapeBytes / MB).toFixed(0)} MB, ${info.memory.checkpoints.toLocaleString('en-US')} checkpoints)${lastSeekMs !== null ? ` · last seek ${lastSeekMs.toFixed(0)} ms` : ''}`
          : 'recording…'}
      </div>
      <KpiStrip label="Figures at the cursor" />
    </header>
  );
}

/** the workload line, plus the scheduled changes the run goes through, by kind ("2 pause / resume, 1 setting or toggle") */
export function withSchedule(workload: string, changes: readonly ConfigChange[]): string {
  if (changes.length === 0) return workload;
  const pauses = changes.filter((c) => c.paused !== undefined).length;
  const settings = changes.filter((c) => c.client !== undefined || c.workload !== undefined).length;
  const parts = [settings > 0 ? `${settings} of settings or toggles` : null, pauses > 0 ? `${pauses} pause / resume` : null].filter(Boolean);
  return `${workload} · ${changes.length} scheduled change${changes.length === 1 ? '' : 's'}: ${parts.join(', ')}${settings > 0 ? ' (settings and toggles as at the cursor)' : ''}`;
}
