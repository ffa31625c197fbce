/**
 * `GET /session` (src/platform/serverSession.ts): the run's token and the
 * names of the extensions running, for this origin's page only.
 */
import { SESSION_PATH, type ServerSession } from '../platform/serverSession.ts';
import type { ServerExtension } from './extensions.ts';
import { sendText } from './respond.ts';

/** `GET /session`: the token and the extensions, for the page of this origin only */
export const sessionExtension: ServerExtension = {
  name: 'session',
  start: ({ session, extensionNames }) => ({
    routes: {
      [SESSION_PATH]: (req, res) => {
        if (req.method !== 'GET' && req.method !== 'HEAD') return sendText(res, 405, 'GET only', { Allow: 'GET, HEAD' });
        // browsers say where a request comes from; another site's page (or frame) gets nothing
        const site = req.headers['sec-fetch-site'];
        if (site !== undefined && site !== 'same-origin' && site !== 'none') return sendText(res, 403, 'the session is for this origin\'s page only');
        const body: ServerSession = { token: session.token, extensions: [...extensionNames] };
        const text = JSON.stringify(body);
        res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
    },
  }),
};
