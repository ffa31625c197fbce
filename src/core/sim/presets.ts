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
  readonly label: string;
  readonly input: unknown;
}

export const PRESETS: readonly Preset[] = [
  { id: 'steady', label: 'Steady', input: steady },
  { id: 'failover', label: 'Failover', input: failover },
  { id: 'scale-out', label: 'Scale out', input: scaleOut },
  { id: 'failback', label: 'Failback', input: failback },
  { id: 'full-churn', label: 'Full churn', input: fullChurn },
  { id: 'refresh-storm', label: 'Refresh storm (bug on)', input: refreshStorm },
  { id: 'herd', label: 'Thundering herd (no coalescing)', input: herd },
  { id: 'lost-ack', label: 'Lost acknowledgement', input: lostAck },
];

export const PRESET_IDS = PRESETS.map((p) => p.id);

export function findPreset(id: string): Preset | undefined {
  return PRESETS.find((p) => p.id === id);
}
