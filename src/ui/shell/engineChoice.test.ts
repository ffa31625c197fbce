import { describe, expect, it } from 'vitest';
import { probeRealEngine } from './engineChoice';

/** a fetch that answers each path from a table (404 otherwise) */
const fakeFetch = (routes: Record<string, unknown>): typeof fetch =>
  (async (input: RequestInfo | URL) => {
    const path = String(input);
    if (!(path in routes)) return new Response('not found', { status: 404 });
    return new Response(JSON.stringify(routes[path]), { status: 200 });
  }) as typeof fetch;

const token = 'a'.repeat(43);
const status = (available: boolean) => ({
  available,
  reason: available ? null : 'redis-server is not installed on this machine (apt-get install redis-server)',
  faults: [{ action: 'failover', help: 'kill -9' }],
  unsupported: [{ action: 'slow', reason: 'no knob' }],
  presets: ['steady'],
});

describe('the engine choice learns what this server can run', () => {
  it('available: the token and the status', async () => {
    const r = await probeRealEngine(fakeFetch({ '/session': { token, extensions: ['session', 'real-engine'] }, '/real-engine/status': status(true) }));
    expect(r).toMatchObject({ state: 'available', token, status: { presets: ['steady'] } });
  });

  it('no redis-server: one line saying so', async () => {
    const r = await probeRealEngine(fakeFetch({ '/session': { token, extensions: ['session', 'real-engine'] }, '/real-engine/status': status(false) }));
    expect(r).toEqual({ state: 'unavailable', line: 'Redis Cluster on this machine: redis-server is not installed on this machine (apt-get install redis-server)' });
  });

  it('a static host or a server without the bridge: one line naming what is needed', async () => {
    const line = 'Redis Cluster on this machine needs the local server: run npm start (or npm run dev)';
    expect(await probeRealEngine(fakeFetch({}))).toEqual({ state: 'unavailable', line });
    expect(await probeRealEngine(fakeFetch({ '/session': { token, extensions: ['session'] } }))).toEqual({ state: 'unavailable', line });
  });
});
