/**
 * Every extension the servers run (`npm start` and `npm run dev`), in order:
 * routes of an earlier one win. The real-engine WebSocket bridge (issue 12)
 * is `realEngine/realEngineBridge.ts`.
 */
import { cspReportsExtension, type CspViolation } from './cspReports.ts';
import type { ServerExtension } from './extensions.ts';
import { realEngineBridge } from './realEngine/realEngineBridge.ts';
import { sessionExtension } from './sessionRoute.ts';

export interface ExtensionOptions {
  /** what happens to a CSP violation report (default: one line on stderr) */
  readonly onCspViolation?: (v: CspViolation) => void;
}

export function serverExtensions(options: ExtensionOptions = {}): readonly ServerExtension[] {
  return [sessionExtension, cspReportsExtension(options.onCspViolation), realEngineBridge()];
}

export const SERVER_EXTENSIONS: readonly ServerExtension[] = serverExtensions();
