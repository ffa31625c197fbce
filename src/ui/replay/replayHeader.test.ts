import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../../core/client/config';
import type { ClusterView } from '../../core/cluster/views';
import type { RunIdentity } from '../export/caption';
import { identityAtCursor } from './identityAtCursor';
import { withSchedule } from './ReplayHeader';
import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { RunIdentityBlock } from './RunIdentityBlock';

describe('the replay header', () => {
  it('names the scheduled changes by kind: a recording of Start / Pause / Start is not "configuration changes"', () => {
    expect(withSchedule('5000/s open loop', [])).toBe('5000/s open loop');
    expect(withSchedule('w', [{ atMs: 0, paused: true }, { atMs: 3000, paused: false }, { atMs: 8000, paused: true }, { atMs: 11000, paused: false }])).toBe('w · 4 scheduled changes: 4 pause / resume');
    expect(withSchedule('w', [{ atMs: 5000, client: { maxAttempts: 5 } }, { atMs: 8000, paused: true }])).toBe('w · 2 scheduled changes: 1 of settings or toggles, 1 pause / resume (settings and toggles as at the cursor)');
  });

  it('counts the nodes of the cluster at the cursor: scale-out at 7.2 s has 4 (node 3 joined at 4 s), not the 3 it started with', () => {
    const id: RunIdentity = { scenario: 'scale-out', seed: 1, nodes: 3, segments: 64, client: DEFAULT_CLIENT_CONFIG, source: 'preset scale-out' };
    const view = (statuses: readonly ('up' | 'down' | 'joining')[]): ClusterView => ({ t: 7200, epoch: 2, nodes: statuses.map((status, i) => ({ id: i, status, declaredDead: false })), owners: [], phases: [], replicas: [] });
    expect(identityAtCursor(id, null, view(['up', 'up', 'up', 'up']))).toEqual({ ...id, nodes: 4 });
    // a down node is still one of the cluster's, as in the Live header (and named as not up, for the exports)
    expect(identityAtCursor(id, null, view(['up', 'down', 'up']))).toEqual({ ...id, nodesNotUp: '1 down' });
    expect(identityAtCursor(id, null, view(['up', 'down', 'up', 'joining']), 9000)).toEqual({ ...id, nodes: 4, nodesNotUp: '1 down, 1 joining', topologyAtMs: 9000 });
    // the frame's time is recorded only when the figures are the view's
    expect(identityAtCursor(id, null, view(['up', 'up', 'up']), 2000)).toEqual({ ...id, topologyAtMs: 2000 });
    expect(identityAtCursor(id, null, null, 2000)).toBe(id);
    // no cluster view at the frame, or an empty one (an events file lacking its topology): the run's own
    expect(identityAtCursor(id, null, null)).toBe(id);
    expect(identityAtCursor(id, null, view([]))).toBe(id);
    const file: RunIdentity = { ...id, nodes: null, segments: null, client: null, source: 'events file' };
    expect(identityAtCursor(file, null, view(['up', 'up']))).toBe(file);
    expect(identityAtCursor(file, null, view(['up', 'down']), 2000)).toBe(file);
    // a schedule's settings at the cursor
    const later = { ...DEFAULT_CLIENT_CONFIG, maxAttempts: 5 };
    expect(identityAtCursor(id, later, view(['up', 'up', 'up', 'up']))).toEqual({ ...id, nodes: 4, client: later });
  });

  it('the header names the nodes not up at the cursor beside the count, as the captions do ("3 nodes (1 down)")', () => {
    const id: RunIdentity = { scenario: 'failover', seed: 1, nodes: 3, segments: 64, client: DEFAULT_CLIENT_CONFIG, source: 'preset failover' };
    const text = (identity: RunIdentity) => renderToString(createElement(RunIdentityBlock, { identity })).replace(/<[^>]+>/g, '').replace(/&#x27;/g, "'");
    expect(text({ ...id, nodesNotUp: '1 down' })).toContain('3 nodes (1 down) · 64 segments');
    expect(text(id)).toContain('3 nodes · 64 segments');
  });
});
