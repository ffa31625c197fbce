/** What to replay: a preset, a seed, bug toggles, or a file (scenario JSON, NDJSON events). */
import { BUG_TOGGLES } from '../../core/client/config';
import { PresetSelect } from '../controls/PresetSelect';
import { SeedInput } from '../controls/SeedInput';
import { BUG_HELP } from '../controls/BugToggles';
import type { BugToggle, UrlState } from '../urlState';

export interface RunSettingsProps {
  readonly part: UrlState;
  /** the loaded run's bug toggles (what the chips show) */
  readonly bugsOn: readonly BugToggle[] | null;
  /** the loaded run's seed */
  readonly seed: number | null;
  /** a label for an inline scenario (file / recording / link) */
  readonly inlineLabel: string | null;
  readonly onChange: (part: Partial<UrlState>) => void;
  readonly onFile: (file: File) => void;
  readonly disabled?: boolean;
  /** the run changes its toggles on a schedule: the chips are its toggles at the start, and say so */
  readonly scheduled?: boolean;
}

export function RunSettings({ part, bugsOn, seed, inlineLabel, onChange, onFile, disabled, scheduled }: RunSettingsProps) {
  const preset = 'preset' in part.scenario ? part.scenario.preset : '';
  return (
    <div className="run-settings" role="group" aria-label="What to replay">
      <PresetSelect
        value={preset}
        disabled={disabled}
        inlineLabel={inlineLabel ?? 'scenario from the link'}
        onSelect={(id) => onChange({ scenario: { preset: id }, seed: undefined, client: {}, cursor: undefined })}
      />
      <SeedInput seed={seed} disabled={disabled === true || seed === null} onSeed={(n) => onChange({ seed: n })} />
      <div className="chips" role="group" aria-label="Bug toggles">
        {BUG_TOGGLES.map((b) => {
          const on = bugsOn?.includes(b) ?? false;
          return (
            <label key={b} className={`chip ${on ? 'on' : ''}`} title={BUG_HELP[b].help}>
              <input
                type="checkbox"
                checked={on}
                disabled={disabled || bugsOn === null}
                onChange={(e) => onChange({ client: { ...part.client, bugs: e.target.checked ? [...(bugsOn ?? []), b] : (bugsOn ?? []).filter((x) => x !== b) } })}
              />
              {BUG_HELP[b].label}
            </label>
          );
        })}
        {scheduled === true ? (
          <span className="chips-note" data-testid="replay-toggles-at-start" title="These chips set the toggles the run starts with; its scheduled configuration changes turn toggles on and off later (the header shows the settings and toggles at the cursor)">
            toggles at the run's start: its schedule changes them (the header shows them at the cursor)
          </span>
        ) : null}
      </div>
      <label className="btn small file-btn" title="Open a scenario (.json) or an events file (.ndjson, the export or the CLI's --events output)">
        Open file…
        <input
          type="file"
          accept=".json,.ndjson,.jsonl,application/json,application/x-ndjson"
          data-testid="replay-open-file"
          onChange={(e) => {
            const f = e.target.files?.[0];
            e.target.value = '';
            if (f) onFile(f);
          }}
        />
      </label>
    </div>
  );
}
