import { describe, expect, it } from 'vitest';
import { fetchServerSession, SESSION_PATH } from './serverSession';

const token = 'T22fYUdRn5bNk0rz0X-fvWt5RRqrco8LxMpCiHeCo8k';
const answer = (status: number, body: unknown): typeof fetch => (async (url: unknown) => {
  expect(url).toBe(SESSION_PATH);
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
}) as typeof fetch;

describe('fetchServerSession', () => {
  it('reads the token and the extensions', async () => {
    expect(await fetchServerSession(answer(200, { token, extensions: ['session', 'csp-reports'] }))).toEqual({ token, extensions: ['session', 'csp-reports'] });
  });

  it('no session when the host has no route, answers junk or cannot be reached', async () => {
    expect(await fetchServerSession(answer(404, 'not found'))).toBeNull();
    expect(await fetchServerSession(answer(200, '<!doctype html>'))).toBeNull();
    expect(await fetchServerSession(answer(200, { token: 'short', extensions: [] }))).toBeNull();
    expect(await fetchServerSession(answer(200, { token, extensions: [], extra: 1 }))).toBeNull();
    expect(await fetchServerSession((async () => Promise.reject(new TypeError('offline'))) as typeof fetch)).toBeNull();
  });
});
