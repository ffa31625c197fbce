/**
 * What the page can learn from the server it was loaded from: `GET /session`
 * answers `{ "token": "…", "extensions": ["session", …] }` on `npm start` and
 * `npm run dev` (src/server/README.md). The token is the server run's secret:
 * a server extension that takes requests from the page (a WebSocket bridge)
 * accepts only requests that carry it and come from the page's own origin,
 * so another site open in the same browser cannot talk to it. A static host
 * without the route (`vite preview`, a file server) answers 404: no session.
 */
import { z } from 'zod';

export const SESSION_PATH = '/session';

export const serverSessionSchema = z
  .object({
    /** 43 characters of base64url (32 random bytes) */
    token: z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'must be 43 base64url characters'),
    /** names of the server extensions running (src/server/extensions.ts) */
    extensions: z.array(z.string()),
  })
  .strict();

export type ServerSession = z.infer<typeof serverSessionSchema>;

/**
 * The session of the server that served this page, or null when there is none
 * (404, network error or an answer of another shape — the page then runs
 * without server extensions).
 */
export async function fetchServerSession(fetchImpl: typeof fetch = fetch): Promise<ServerSession | null> {
  try {
    const res = await fetchImpl(SESSION_PATH, { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) return null;
    const parsed = serverSessionSchema.safeParse(await res.json());
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
