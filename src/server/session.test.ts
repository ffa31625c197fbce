import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createSession, refusalOf, tokenMatches } from './session.ts';

/** a request as the checks see it: headers, URL and the port it arrived on */
const req = (headers: Record<string, string>, url: string, port = 4310): IncomingMessage =>
  ({ headers, url, socket: { localPort: port } }) as unknown as IncomingMessage;

describe('the session and its checks', () => {
  const session = createSession();

  it('a token is 32 random bytes in base64url, new per run', () => {
    expect(session.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(createSession().token).not.toBe(session.token);
  });

  it('tokenMatches compares exactly', () => {
    expect(tokenMatches(session, session.token)).toBe(true);
    expect(tokenMatches(session, `${session.token}x`)).toBe(false);
    expect(tokenMatches(session, session.token.slice(1))).toBe(false);
    expect(tokenMatches(session, null)).toBe(false);
  });

  it('refusalOf accepts only this server\'s page with the token', () => {
    const ok = { host: '127.0.0.1:4310', origin: 'http://127.0.0.1:4310' };
    expect(refusalOf(req(ok, `/bridge?token=${session.token}`), session)).toBeNull();
    expect(refusalOf(req({ host: 'localhost:4310', origin: 'http://localhost:4310' }, `/bridge?token=${session.token}`), session)).toBeNull();
    expect(refusalOf(req(ok, '/bridge'), session)).toBe('missing or wrong session token');
    expect(refusalOf(req(ok, '/bridge?token=nope'), session)).toBe('missing or wrong session token');
    expect(refusalOf(req({ ...ok, origin: 'http://evil.example' }, `/bridge?token=${session.token}`), session)).toBe('Origin "http://evil.example" is not this server\'s page');
    expect(refusalOf(req({ host: '127.0.0.1:4310' }, `/bridge?token=${session.token}`), session)).toBe('Origin "" is not this server\'s page');
    expect(refusalOf(req({ ...ok, origin: 'http://127.0.0.1:5173' }, `/bridge?token=${session.token}`), session)).toMatch(/^Origin/);
    expect(refusalOf(req({ ...ok, host: 'rebound.example:4310' }, `/bridge?token=${session.token}`), session)).toBe('Host "rebound.example:4310" is not this server');
    // the port is the one the request came in on, so a page of another local server is another origin
    expect(refusalOf(req(ok, `/bridge?token=${session.token}`, 5173), session)).toMatch(/^Host/);
  });
});
