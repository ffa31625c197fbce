/**
 * The scenarios that ship with the product, by name. Adding a preset is
 * adding one JSON file here and one line below.
 */
import failback from './presets/failback.json';
import failover from './presets/failover.json';
import fullChurn from './presets/full-churn.json';
import herd from './presets/herd.json';
import lostAck from './presets/lost-ack.json';
import refreshStorm from './presets/refresh-storm.json';
import scaleOut from './presets/scale-out.json';
import steady from './presets/steady.json';

export interface Preset {
  readonly id: string;
  /** the scenario's name alone (Compare: each side's bug toggles replace the preset's) */
  readonly name: string;
  /** the name with the bug toggles the preset turns on, where it turns any on */
  readonly label: string;
  readonly input: unknown;
}

const preset = (id: string, name: string, input: unknown, toggles?: string): Preset => ({ id, name, label: toggles === undefined ? name : `${name} (${toggles})`, input });

export const PRESETS: readonly Preset[] = [
  preset('steady', 'Steady', steady),
  preset('failover', 'Failover', failover),
  preset('scale-out', 'Scale out', scaleOut),
  preset('failback', 'Failback', failback),
  preset('full-churn', 'Full churn', fullChurn),
  preset('refresh-storm', 'Refresh storm', refreshStorm, 'bug on'),
  preset('herd', 'Thundering herd', herd, 'no coalescing'),
  preset('lost-ack', 'Lost acknowledgement', lostAck),
];

export const PRESET_IDS = PRESETS.map((p) => p.id);

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
