/**
 * The replay's exports: run files (NDJSON events, Perfetto trace, scenario
 * JSON) and the per-panel PNG / SVG with the caption strip (the cluster as at
 * the cursor).
 */
import { toScenarioInput } from '../../core/sim/scenario';
import { exportFileName } from '../export/caption';
import { downloadText } from '../export/download';
import type { ExportAction } from '../export/ExportButtons';
import { panelExportActions } from '../export/panelExport';
import type { DashboardStore } from '../store/dashboardStore';
import { panelCaption } from './captions';
import type { ReplayController } from './replayController';

/** NDJSON, Perfetto trace and (for scenario runs) the scenario file */
export function runExports(ctl: ReplayController): ExportAction[] {
  const ident = () => ctl.ui.getState().run?.identity ?? { scenario: 'replay', seed: null };
  const out: ExportAction[] = [
    {
      label: 'NDJSON',
      title: 'The whole run as JSON Lines events (the CLI --events format; re-import it with Open file…)',
      testId: 'replay-export-ndjson',
      run: async () => downloadText(await ctl.exportNdjson(), exportFileName(ident(), 'events', 'ndjson'), 'application/x-ndjson'),
    },
    {
      label: 'Perfetto trace',
      title: 'The whole run as Chrome trace-event JSON: open it in ui.perfetto.dev or chrome://tracing',
      testId: 'replay-export-trace',
      run: async () => downloadText(await ctl.exportTrace(), exportFileName(ident(), 'trace', 'json'), 'application/json'),
    },
  ];
  const scenario = ctl.ui.getState().run?.scenario;
  if (scenario)
    out.push({
      label: 'Scenario',
      title: 'This run as an editable scenario file (SPEC §10): replay it here or with npm run sim',
      testId: 'replay-export-scenario',
      run: async () => downloadText(`${JSON.stringify(toScenarioInput(scenario), null, 2)}\n`, exportFileName(ident(), 'scenario', 'json'), 'application/json'),
    });
  return out;
}

/** PNG / SVG of one panel, captioned with the run, verdict and the charts' time range */
export function panelExports(ctl: ReplayController, store: DashboardStore, title: string, element: () => HTMLElement | null, domainSec: () => readonly [number, number]): ExportAction[] {
  const caption = () => panelCaption(ctl.ui.getState(), store.getState(), title, domainSec());
  return panelExportActions(title, element, caption, () => ctl.ui.getState().run?.identity ?? { scenario: 'replay', seed: null });
}
