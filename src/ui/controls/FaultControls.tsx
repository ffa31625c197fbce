import { useState } from 'react';
import { MAX_CLUSTER_NODES } from '../../core/cluster/clusterConfig';
import { FAULT_KINDS, type FaultCommand, type FaultKind } from '../../core/cluster/faults';
import { PARTITION_DIRECTIONS, type PartitionDirection } from '../../core/cluster/linkFaults';
import { selectFaultTargets } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { FAULT_STYLE } from '../theme/statusColors';
import { useControls, useSessionActions } from './ControlsContext';
import { FormErrors } from './Field';

/** what a button's defaults mean, for its tooltip */
function strength(b: Partial<FaultCommand>): string {
  const parts = [
    b.factor !== undefined ? `×${b.factor}` : null,
    b.probability !== undefined ? `p = ${b.probability}` : null,
    b.direction !== undefined ? `direction ${b.direction}` : null,
    b.durationMs !== undefined ? `for ${b.durationMs / 1000} s` : null,
  ].filter((p) => p !== null);
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** fault buttons (SPEC §4), one per entry of the fault registry, with the node they act on */
export function FaultControls() {
  const cluster = useDashboard((s) => s.cluster);
  const issues = useDashboard((s) => s.formErrors.fault);
  const actions = useSessionActions();
  const unsupported = useControls().unsupportedFaults ?? {};
  const targets = selectFaultTargets(cluster);
  const [picked, setPicked] = useState<number | null>(null);
  // a one-way partition's side: requests lost ("in") or replies lost ("out", the registry's default)
  const [direction, setDirection] = useState<PartitionDirection | null>(null);
  // the chosen node, else the first live one
  const node = picked !== null && targets.all.includes(picked) ? picked : (targets.up[0] ?? targets.all[0] ?? 0);
  const nodeIsDown = targets.down.includes(node);
  const disabled = (k: FaultKind): boolean => {
    switch (k.needs) {
      case 'serving':
        return nodeIsDown;
      case 'someDown':
        return targets.down.length === 0;
      case 'someHung':
        return targets.hung.length === 0;
      case 'room':
        return targets.all.length >= MAX_CLUSTER_NODES;
    }
  };
  // Failback of a node that is up brings back the first node that is down: the button says which
  const failbackOther = !nodeIsDown ? targets.down[0] : undefined;
  // a button's parameters: the registry's defaults, with the direction picked beside it
  const paramsOf = (k: FaultKind): Partial<FaultCommand> => (k.params.includes('direction') && direction !== null ? { ...k.button, direction } : k.button);
  const fire = (k: FaultKind): void => {
    const target: Partial<FaultCommand> = k.node === 'required' ? { node } : k.id === 'failback' && nodeIsDown ? { node } : {};
    void actions.fault({ action: k.id, ...paramsOf(k), ...target });
  };
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
      {FAULT_KINDS.flatMap((k) => {
        const button = (
          <button
            key={k.id}
            type="button"
            className="btn fault"
            style={{ borderColor: FAULT_STYLE[k.id].color }}
            onClick={() => fire(k)}
            disabled={disabled(k) || unsupported[k.id] !== undefined}
            title={
              unsupported[k.id] ??
              `${k.help}${strength(paramsOf(k))}${k.needs === 'room' ? ` (at most ${MAX_CLUSTER_NODES} nodes)` : ''}${k.id === 'failback' && failbackOther !== undefined ? ` — n${node} is up, so this brings back n${failbackOther}, the first node that is down` : ''}`
            }
          >
            <span className="dot" style={{ background: FAULT_STYLE[k.id].color }} aria-hidden="true" />
            {FAULT_STYLE[k.id].label}
            {k.id === 'failback' && failbackOther !== undefined ? <span className="fault-target" aria-hidden="true"> → n{failbackOther}</span> : null}
          </button>
        );
        if (!k.params.includes('direction')) return [button];
        // the fault's one choice that is not a strength: which way the link loses messages
        return [
          button,
          <select key={`${k.id}-direction`} className="fault-direction" value={paramsOf(k).direction ?? 'out'} onChange={(e) => setDirection(e.target.value as PartitionDirection)} aria-label={`${FAULT_STYLE[k.id].label} direction`} title={`which way the next ${FAULT_STYLE[k.id].label.toLowerCase()} loses messages`}>
            {PARTITION_DIRECTIONS.map((d) => (
              <option key={d} value={d}>
                {d === 'in' ? 'requests lost' : 'replies lost'}
              </option>
            ))}
          </select>,
        ];
      })}
      <FormErrors issues={issues} what="Fault" />
    </div>
  );
}
