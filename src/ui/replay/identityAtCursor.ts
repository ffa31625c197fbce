/**
 * The run's identity as at the replay cursor: what the header names (and,
 * from it, what the exports' captions say of the cluster). Pure.
 */
import type { ClientConfig } from '../../core/client/config';
import type { ClusterView } from '../../core/cluster/views';
import type { RunIdentity } from '../export/caption';

/**
 * The identity as at the cursor, as the panels beside it: the cluster's node count from the cluster view of the
 * frame (a node that joined by then counts; a down one still does, as in the Live header), and for a run with a
 * schedule the settings in effect (the store follows them; `client` null: the run's own). A run whose cluster is
 * unknown (an events file) or a frame without a cluster view keeps the identity's.
 */
export function identityAtCursor(identity: RunIdentity, client: ClientConfig | null, cluster: ClusterView | null): RunIdentity {
  const nodes = identity.nodes !== null && cluster !== null && cluster.nodes.length > 0 ? cluster.nodes.length : identity.nodes;
  return nodes === identity.nodes && client === null ? identity : { ...identity, nodes, ...(client !== null ? { client } : {}) };
}
