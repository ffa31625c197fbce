import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { hasClientMap, keyspaceText, keyspaceUnit, selectEpochs, selectNodeCards, selectSegmentCells, selectStaleCount, type SegmentCell } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import { NODE_STATUS_STYLE, nodeColor, SEGMENT_PHASE_STYLE, type SeriesStyle } from '../theme/statusColors';
import { cellSlots } from '../../core/cluster/views';
import { ChartFrame } from './chart/ChartFrame';

const STALE_STYLE: SeriesStyle = { label: "client's map disagrees (stale)", color: '#f8fafc' };
const OWNER_DOWN_STYLE: SeriesStyle = { label: 'owner down (dimmed: no answer until a replica is promoted)', color: '#475569' };

/** what one cell stands for: a segment, or (`slots` set) a range of an engine's hash slots */
function cellName(c: SegmentCell, cells: number, slots: number | undefined): string {
  if (slots === undefined) return `segment ${c.segment}`;
  const [a, b] = cellSlots(c.segment, cells, slots);
  return `slots ${a}–${b - 1}`;
}

function cellTitle(c: SegmentCell, name: string): string {
  const owner = c.owner < 0 ? 'no owner' : `owner n${c.owner}`;
  const client = c.stale ? `; client routes to ${c.clientOwner < 0 ? 'nobody' : `n${c.clientOwner}`}` : '';
  return `${name}: ${owner}${c.ownerDown ? ' (not up: no answer until a replica is promoted)' : ''}${c.phase === 'stable' ? '' : `, ${c.phase}`}${client}; replicas ${c.replicas.map((r) => `n${r}`).join(', ') || '—'}`;
}

/** nodes, the segment → active owner grid, and the client's view of it */
export function ClusterPanel() {
  const { cluster, client } = useDashboard(useShallow((s) => ({ cluster: s.cluster, client: s.client })));
  const nodes = useMemo(() => selectNodeCards(cluster, client), [cluster, client]);
  const cells = useMemo(() => selectSegmentCells(cluster, client), [cluster, client]);
  const epochs = selectEpochs(cluster, client);
  const stale = selectStaleCount(cluster, client);
  const ownerDown = cells.filter((c) => c.ownerDown).length;
  // one test for "the client has a map" (epoch 0 = none fetched yet), as the staleness count uses
  const mapped = hasClientMap(client);
  const slotCells = keyspaceUnit(cluster) === 'hash slot';
  const unit = slotCells ? 'cell' : 'segment';
  const legend: SeriesStyle[] = [
    ...nodes.map((n) => ({ label: `owner n${n.id}`, color: nodeColor(n.id) })),
    { label: 'no owner', color: nodeColor(-1) },
    SEGMENT_PHASE_STYLE.migrating,
    SEGMENT_PHASE_STYLE.transitioning,
    STALE_STYLE,
    OWNER_DOWN_STYLE,
  ];
  return (
    <ChartFrame
      title="Cluster"
      units={
        slotCells && cluster !== null ? `${keyspaceText(cluster, 0)} in ${cluster.owners.length} cells, each by the master serving most of its slots` : 'segments by active owner'
      }
      legend={legend}
      empty={cluster === null || cluster.nodes.length === 0}
      emptyText={cluster?.note ?? 'No cluster view yet — press Start.'}
      aside={
        <span className="stat" aria-label="epochs">
          epoch {epochs.cluster ?? '—'} <small>cluster</small> · {epochs.client ?? '—'} <small>client map</small>
          {epochs.behind > 0 ? <b className="warn"> {epochs.behind} behind</b> : null}
        </span>
      }
    >
      {cluster?.note ? (
        <p className="panel-hint" data-testid="cluster-note">
          {cluster.note}
        </p>
      ) : null}
      <div className="nodes">
        {nodes.map((n) => (
          <div key={n.id} className="node-card" style={{ borderLeftColor: nodeColor(n.id) }} aria-label={`node ${n.id} ${n.status}`}>
            <div className="node-name">
              Node {n.id}
              <span className="pill" style={{ background: NODE_STATUS_STYLE[n.status].color }}>
                {NODE_STATUS_STYLE[n.status].label}
              </span>
            </div>
            <div className="node-stats">
              owns <b>{n.owned}</b> · replica of <b title={cluster?.replicasUnknown ? 'the source holds no replica sets' : undefined}>{cluster?.replicasUnknown ? '—' : n.replicaOf}</b> · client routes{' '}
              <b title={mapped ? undefined : 'no client map yet to count routes in'}>{mapped ? n.clientRouted : '—'}</b>
            </div>
            {n.declaredDead ? <div className="node-note">declared dead by the detector</div> : null}
          </div>
        ))}
      </div>
      <div className="segment-grid" role="img" aria-label={`${cells.length} ${slotCells ? 'cells of hash slots' : 'segments'}, ${stale} where the client's map is stale`}>
        {cells.map((c) => (
          <div
            key={c.segment}
            className={`seg ${c.phase} ${c.stale ? 'stale' : ''} ${c.ownerDown ? 'owner-down' : ''}`}
            style={{ backgroundColor: nodeColor(c.owner), outlineColor: SEGMENT_PHASE_STYLE[c.phase].color }}
            title={cellTitle(c, cellName(c, cells.length, cluster?.slots))}
          >
            {c.segment}
          </div>
        ))}
      </div>
      <p className="panel-foot">
        {!mapped && cluster?.note
          ? "No client map to compare with: an imported events file does not carry the client's map."
          : !mapped
            ? 'No client map yet to compare with.'
            : stale === 0
            ? `The client's map agrees with the cluster on every ${unit}.`
            : `The client's map is stale for ${stale} ${unit}${stale === 1 ? '' : 's'} (marked): its next attempt there goes to the wrong node.`}
        {ownerDown > 0 ? ` ${ownerDown} ${unit}${ownerDown === 1 ? ' is' : 's are'} owned by a node that is not up (dimmed): ${ownerDown === 1 ? 'it answers' : 'they answer'} nothing until a replica is promoted.` : ''}
      </p>
    </ChartFrame>
  );
}
