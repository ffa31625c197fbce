/**
 * The run's identity as at the replay cursor: what the header names, and
 * what the exports' captions (`captions.ts`: panels, timeline, review
 * report) say of the cluster. Pure.
 */
import type { ClientConfig } from '../../core/client/config';
import type { ClusterView } from '../../core/cluster/views';
import type { RunIdentity } from '../export/caption';
import { nodesNotUpText } from '../store/clusterSelectors';

/**
 * The client settings the identity names at the cursor: the store's (which follows the run's schedule) when
 * the run schedules setting changes, else null (the run's own, with no time attached).
 */
export function scheduledClient(scenario: { readonly changes: readonly { readonly client?: unknown }[] } | null, current: ClientConfig): ClientConfig | null {
  return scenario !== null && scenario.changes.some((c) => c.client !== undefined) ? current : null;
}

/**
 * The identity as at the cursor, as the panels beside it: the cluster's node count from the cluster view of the
 * frame (a node that joined by then counts; a down one still does, as in the Live header, and is named in
 * `nodesNotUp`), and for a run with a schedule the settings in effect (the store follows them, {@link scheduledClient};
 * `client` null: the run's own; with `atMs`, recorded as `clientAtMs`: "client at 7.50 s: …"). `atMs`, the frame's time, is recorded as `topologyAtMs` when the figures come from that view (the
 * captions say "at 7.50 s"). A run whose cluster is unknown (an events file) or a frame without a cluster view keeps
 * the identity's.
 */
export function identityAtCursor(identity: RunIdentity, client: ClientConfig | null, cluster: ClusterView | null, atMs: number | null = null): RunIdentity {
  const view = identity.nodes !== null && cluster !== null && cluster.nodes.length > 0 ? cluster : null;
  const nodes = view !== null ? view.nodes.length : identity.nodes;
  const notUp = view !== null ? nodesNotUpText(view) : '';
  const at = view !== null ? atMs : null;
  if (nodes === identity.nodes && client === null && notUp === '' && at === null) return identity;
  return {
    ...identity,
    nodes,
    ...(client !== null ? { client, ...(atMs !== null ? { clientAtMs: atMs } : {}) } : {}),
    ...(notUp !== '' ? { nodesNotUp: notUp } : {}),
    ...(at !== null ? { topologyAtMs: at } : {}),
  };
}
