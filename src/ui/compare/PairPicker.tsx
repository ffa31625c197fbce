/** Choose the scenario, seed and the two client configurations (bug toggles on in A and in B). */
import { BUG_TOGGLES } from '../../core/client/config';
import { PresetSelect } from '../controls/PresetSelect';
import { SeedInput } from '../controls/SeedInput';
import type { Scenario } from '../../core/sim/scenario';
import { BUG_HELP } from '../controls/BugToggles';
import type { BugToggle, UrlState } from '../urlState';
import { quickPairs, samePair, type TogglePair } from './pairs';

export interface PairPickerProps {
  readonly part: UrlState;
  readonly scenario: Scenario | null;
  readonly pair: TogglePair | null;
  readonly onChange: (part: Partial<UrlState>) => void;
  readonly busy: boolean;
}

function Chips({ side, list, onToggle, disabled }: { side: 'A' | 'B'; list: readonly BugToggle[]; onToggle: (t: BugToggle, on: boolean) => void; disabled: boolean }) {
  return (
    <div className={`chips side-chips side-${side.toLowerCase()}`} role="group" aria-label={`Bug toggles on in run ${side}`}>
      <span className="side-tag">{side}</span>
      {BUG_TOGGLES.map((t) => (
        <label key={t} className={`chip ${list.includes(t) ? 'on' : ''}`} title={BUG_HELP[t].help}>
          <input type="checkbox" checked={list.includes(t)} disabled={disabled} onChange={(e) => onToggle(t, e.target.checked)} />
          {BUG_HELP[t].label}
        </label>
      ))}
    </div>
  );
}

export function PairPicker({ part, scenario, pair, onChange, busy }: PairPickerProps) {
  const preset = 'preset' in part.scenario ? part.scenario.preset : '';
  const quick = scenario ? quickPairs(scenario) : [];
  const current = pair ? quick.find((q) => samePair(q.pair, pair))?.id ?? '' : '';
  const setLists = (next: TogglePair) => onChange({ compare: { a: next.a, b: next.b } });
  const toggle = (sideId: 'a' | 'b') => (t: BugToggle, on: boolean) => {
    if (pair === null) return;
    const list = pair[sideId];
    setLists({ ...pair, [sideId]: BUG_TOGGLES.filter((x) => (x === t ? on : list.includes(x))) });
  };
  return (
    <div className="pair-picker">
      <div className="pp-row">
        <PresetSelect value={preset} disabled={busy} namesOnly title="The scenario both runs share; each side's bug toggles below replace the ones the preset turns on" inlineLabel="scenario from the link" onSelect={(id) => onChange({ scenario: { preset: id }, seed: undefined, client: {}, compare: undefined })} />
        <SeedInput seed={scenario?.seed ?? null} disabled={busy} onSeed={(n) => onChange({ seed: n })} />
        <label className="preset">
          compare
          <select value={current} aria-label="Configuration pair" disabled={busy || scenario === null} onChange={(e) => {
            const q = quick.find((x) => x.id === e.target.value);
            if (q) setLists(q.pair);
          }}>
            {current === '' ? <option value="">custom pair</option> : null}
            {quick.map((q) => (
              <option key={q.id} value={q.id}>
                {q.label}
              </option>
            ))}
          </select>
        </label>
      </div>
      {pair ? (
        <div className="pp-sides">
          <Chips side="A" list={pair.a} onToggle={toggle('a')} disabled={busy} />
          <Chips side="B" list={pair.b} onToggle={toggle('b')} disabled={busy} />
        </div>
      ) : null}
    </div>
  );
}
