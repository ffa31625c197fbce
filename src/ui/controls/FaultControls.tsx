import { useState } from 'react';
import type { FaultCommand } from '../../core/cluster/faults';
import { FAULT_HELP } from '../../core/cluster/faults';
import type { FaultAction } from '../../core/telemetry/events';
import { selectFaultTargets } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { FAULT_STYLE } from '../theme/statusColors';
import { useControls, useSessionActions } from './ControlsContext';
import { FormErrors } from './Field';

/** default strength of the timed faults */
const SLOW = { factor: 20, durationMs: 10_000 };
const LOST_ACK = { probability: 0.5, durationMs: 10_000 };

/** fault buttons (SPEC §4) with the node they act on */
export function FaultControls() {
  const cluster = useDashboard((s) => s.cluster);
  const issues = useDashboard((s) => s.formErrors.fault);
  const actions = useSessionActions();
  const unsupported = useControls().unsupportedFaults ?? {};
  const targets = selectFaultTargets(cluster);
  const [picked, setPicked] = useState<number | null>(null);
  // the chosen node, else the first live one
  const node = picked !== null && targets.all.includes(picked) ? picked : (targets.up[0] ?? targets.all[0] ?? 0);
  const fire = (action: FaultAction, extra: Partial<FaultCommand> = {}) => void actions.fault({ action, ...extra });
  const nodeIsDown = targets.down.includes(node);
  const buttons: { action: FaultAction; cmd: () => void; disabled: boolean }[] = [
    { action: 'failover', cmd: () => fire('failover', { node }), disabled: nodeIsDown },
    { action: 'scaleOut', cmd: () => fire('scaleOut'), disabled: false },
    { action: 'failback', cmd: () => fire('failback', nodeIsDown ? { node } : {}), disabled: targets.down.length === 0 },
    { action: 'hang', cmd: () => fire('hang', { node }), disabled: nodeIsDown },
    { action: 'resume', cmd: () => fire('resume', { node }), disabled: targets.hung.length === 0 },
    { action: 'slow', cmd: () => fire('slow', { node, ...SLOW }), disabled: nodeIsDown },
    { action: 'lostAck', cmd: () => fire('lostAck', { node, ...LOST_ACK }), disabled: nodeIsDown },
  ];
  return (
    <div className="faults" role="group" aria-label="Faults">
      <label className="node-pick">
        node
        <select value={node} onChange={(e) => setPicked(Number(e.target.value))} aria-label="Target node">
          {(targets.all.length > 0 ? targets.all : [0]).map((n) => (
            <option key={n} value={n}>
              n{n} {cluster?.nodes.find((x) => x.id === n)?.status ?? ''}
            </option>
          ))}
        </select>
      </label>
      {buttons.map((b) => (
        <button
          key={b.action}
          type="button"
          className="btn fault"
          style={{ borderColor: FAULT_STYLE[b.action].color }}
          onClick={b.cmd}
          disabled={b.disabled || unsupported[b.action] !== undefined}
          title={unsupported[b.action] ?? `${FAULT_HELP[b.action]}${b.action === 'slow' ? ` (×${SLOW.factor} for ${SLOW.durationMs / 1000} s)` : b.action === 'lostAck' ? ` (p = ${LOST_ACK.probability} for ${LOST_ACK.durationMs / 1000} s)` : ''}`}
        >
          <span className="dot" style={{ background: FAULT_STYLE[b.action].color }} aria-hidden="true" />
          {FAULT_STYLE[b.action].label}
        </button>
      ))}
      <FormErrors issues={issues} what="Fault" />
    </div>
  );
}
