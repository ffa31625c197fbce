/** The scenario preset picker shared by the Live, Replay and Compare controls. */
import { PRESETS } from '../../core/sim/presets';

export interface PresetSelectProps {
  /** the selected preset id; '' = a scenario that is not a preset */
  readonly value: string;
  readonly onSelect: (presetId: string) => void;
  /** what the empty choice says when the scenario is not a preset */
  readonly inlineLabel: string;
  readonly disabled?: boolean;
  readonly title?: string;
  /** names only, without the bug toggles a preset turns on (Compare: the sides' toggles replace them) */
  readonly namesOnly?: boolean;
}

export function PresetSelect({ value, onSelect, inlineLabel, disabled = false, title, namesOnly = false }: PresetSelectProps) {
  return (
    <label className="preset">
      scenario
      <select value={value} aria-label="Scenario preset" disabled={disabled} title={title} onChange={(e) => onSelect(e.target.value)}>
        {value === '' ? <option value="">{inlineLabel}</option> : null}
        {PRESETS.map((p) => (
          <option key={p.id} value={p.id}>
            {namesOnly ? p.name : p.label}
          </option>
        ))}
      </select>
    </label>
  );
}
