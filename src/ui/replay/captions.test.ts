import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../core/sim/scenario';
import { shortenedPreset } from '../../core/sim/testkit/presetInputs';
import { captionLines } from '../export/caption';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import { selectConfigSummary } from '../store/selectors';
import { createDashboardStore } from '../store/dashboardStore';
import { exportIdentity, panelCaption } from './captions';
import { ReplayController, SETTLE_MS } from './replayController';
import { replayReportInput } from './replayReport';
import { inProcessSession, manualTime } from './testkit';

/** a preset run recorded by the replay controller (4 s: scale-out's node joins at 1.33 s, failover's node 1 crashes at 1.25 s) */
async function replayOf(preset: string) {
  const store = createDashboardStore();
  let clock = 0;
  const ctl = new ReplayController(store, (l) => inProcessSession(l, manualTime()), () => clock);
  await ctl.loadScenario(loadScenario(shortenedPreset(preset, 4000, 0.2), preset), `preset ${preset}`, preset, 0);
  const at = async (t: number) => {
    clock += SETTLE_MS + 1;
    await ctl.seek(t);
    ctl.flushFrame();
    const ui = ctl.ui.getState();
    const st = store.getState();
    return {
      head: panelCaption(ui, st, 'Throughput', [0, 4])[0],
      panel: panelCaption(ui, st, 'Throughput', [0, 4])[1],
      // the timeline's caption takes the same identity (ReplayView's ReplayTimeline)
      timeline: captionLines({ identity: exportIdentity(ui, st), what: 'timeline', verdict: '', range: null, cursorMs: ui.status.cursorMs })[1],
      report: replayReportInput(ui, st, [], null).cluster,
      header: st.cluster?.nodes.length,
    };
  };
  return { ctl, at };
}

describe("the Replay exports' captions name the cluster at the cursor", () => {
  it('scale-out: 3 nodes before the fourth joins, 4 after it (not the 3 the run started with)', async () => {
    const { ctl, at } = await replayOf('scale-out');
    const before = await at(1000);
    expect(before.head).toBe('Zaris Churn Lab — Throughput panel · scale-out · seed 1 · preset scale-out');
    expect(before.panel).toBe('cluster at 1.00 s: 3 nodes / 64 segments');
    expect(before.timeline).toBe('cluster at 1.00 s: 3 nodes / 64 segments');
    expect(before.report).toBe('3 nodes at 1.00 s, 3 at the start · 64 segments · 1 replica(s) · 4.0 s');
    const joining = await at(1400);
    expect(joining.panel).toBe('cluster at 1.40 s: 4 nodes (1 joining) / 64 segments');
    const after = await at(3000);
    expect(after.header).toBe(4);
    expect(after.panel).toBe('cluster at 3.00 s: 4 nodes / 64 segments');
    expect(after.timeline).toBe('cluster at 3.00 s: 4 nodes / 64 segments');
    expect(after.report).toBe('4 nodes at 3.00 s, 3 at the start · 64 segments · 1 replica(s) · 4.0 s');
    // scrubbed back before the scale-out: the starting topology again
    expect((await at(1200)).panel).toBe('cluster at 1.20 s: 3 nodes / 64 segments');
    ctl.dispose();
  });

  it('failover: all 3 up before the crash, node 1 down after it', async () => {
    const { ctl, at } = await replayOf('failover');
    const before = await at(1000);
    expect(before.panel).toBe('cluster at 1.00 s: 3 nodes / 64 segments');
    expect(before.timeline).toBe('cluster at 1.00 s: 3 nodes / 64 segments');
    const after = await at(3000);
    expect(after.head).toBe('Zaris Churn Lab — Throughput panel · failover · seed 1 · preset failover');
    expect(after.panel).toBe('cluster at 3.00 s: 3 nodes (1 down) / 64 segments');
    expect(after.timeline).toBe('cluster at 3.00 s: 3 nodes (1 down) / 64 segments');
    expect(after.report).toBe('3 nodes (1 down) at 3.00 s, 3 at the start · 64 segments · 1 replica(s) · 4.0 s');
    expect((await at(1200)).panel).toBe('cluster at 1.20 s: 3 nodes / 64 segments');
    ctl.dispose();
  });

  it('a run that schedules a setting change: the captions name the client settings at the frame, as the header does', async () => {
    const store = createDashboardStore();
    let clock = 0;
    const ctl = new ReplayController(store, (l) => inProcessSession(l, manualTime()), () => clock);
    const input = { ...shortenedPreset('failover', 4000, 0.2), changes: [{ atMs: 2000, client: { maxAttempts: 7 } }] };
    await ctl.loadScenario(loadScenario(input, 'failover'), 'file', null, 0);
    const clientLine = async (t: number) => {
      clock += SETTLE_MS + 1;
      await ctl.seek(t);
      ctl.flushFrame();
      const lines = panelCaption(ctl.ui.getState(), store.getState(), 'Throughput', [0, 4]);
      // the review report's configuration row follows the same frame
      const report = replayReportInput(ctl.ui.getState(), store.getState(), [], null);
      expect(report.clientAtMs).toBe(t);
      expect(`client at ${(t / 1000).toFixed(2)} s: ${selectConfigSummary(report.client ?? DEFAULT_CLIENT_CONFIG)}`).toBe(lines.find((l) => l.startsWith('client')));
      return lines.find((l) => l.startsWith('client')) ?? '';
    };
    const before = await clientLine(1000);
    const after = await clientLine(3000);
    expect(before).toMatch(/^client at 1\.00 s: /);
    expect(after).toMatch(/^client at 3\.00 s: /);
    expect(before).not.toContain('7 attempts');
    expect(after).toContain('7 attempts');
    ctl.dispose();
  });

  it('before any frame, the run\'s own figures, without a time', () => {
    const base = createDashboardStore().getState();
    const run = { identity: { scenario: 's', seed: 1, nodes: 3, segments: 64, client: null, source: 'x' }, scenario: null, presetId: null, kind: 'scenario' as const };
    expect(exportIdentity({ run, frameCursorMs: null }, base)).toBe(run.identity);
    expect(exportIdentity({ run: null, frameCursorMs: null }, base).nodes).toBeNull();
  });
});
