/**
 * The dashboard's panels, in display order: adding a panel is adding one
 * component file and one line here.
 */
import type { ComponentType } from 'react';
import { AmbiguousWritesPanel } from './AmbiguousWritesPanel';
import { ClusterPanel } from './ClusterPanel';
import { EventLogPanel } from './EventLogPanel';
import { InvariantsPanel } from './InvariantsPanel';
import { LatencyPanel } from './LatencyPanel';
import { ParkedPanel } from './ParkedPanel';
import { RefreshPanel } from './RefreshPanel';
import { RetriesPanel } from './RetriesPanel';
import { StatusesPanel } from './StatusesPanel';
import { ThroughputPanel } from './ThroughputPanel';

export interface PanelDef {
  readonly id: string;
  /** grid columns it spans on a wide screen (1–3) */
  readonly span: 1 | 2 | 3;
  readonly Component: ComponentType;
}

export const PANELS: readonly PanelDef[] = [
  { id: 'throughput', span: 2, Component: ThroughputPanel },
  { id: 'invariants', span: 1, Component: InvariantsPanel },
  { id: 'refresh', span: 2, Component: RefreshPanel },
  { id: 'parked', span: 1, Component: ParkedPanel },
  { id: 'retries', span: 2, Component: RetriesPanel },
  { id: 'statuses', span: 1, Component: StatusesPanel },
  { id: 'cluster', span: 2, Component: ClusterPanel },
  { id: 'latency', span: 1, Component: LatencyPanel },
  { id: 'ambiguousWrites', span: 3, Component: AmbiguousWritesPanel },
  { id: 'events', span: 3, Component: EventLogPanel },
];
