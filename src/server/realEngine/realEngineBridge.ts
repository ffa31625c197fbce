/**
 * The real-engine bridge: a server extension (../extensions.ts) that lets the
 * dashboard's Live tab run on a Redis Cluster of this machine.
 *
 * - `GET /real-engine/status`: whether redis-server is installed, which
 *   faults the engine can do (the engine's registry, REAL_FAULTS) and why the
 *   others cannot be done, which presets it can run.
 * - `/real-engine?token=…` (WebSocket): one session. Accepted only from this
 *   server's page with the session token (`refusalOf`), and only one at a
 *   time. Every page message is validated (src/platform/realEngineProtocol.ts):
 *   it names a preset, a fault kind or a node index, never a path, a command or
 *   a port; anything else closes the socket. The first valid `start` spawns
 *   the engine host (engineHost.ts, a fixed file) as a child process this
 *   bridge owns; its telemetry comes back as binary batch frames.
 * - The session ends, and the child with every redis-server it started, when
 *   the socket closes or the server closes; if the server process dies, the
 *   child sees its IPC channel close and exits the same way.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Duplex } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { WebSocketServer, type WebSocket } from 'ws';
import { PRESETS } from '../../core/sim/presets';
import { loadScenario } from '../../core/sim/scenario';
import { FAULT_ACTIONS, type FaultAction } from '../../core/telemetry/events';
import { checkRealFaults, REAL_FAULTS } from '../../engine/redis/realFaults';
import { redisServerPath } from '../../engine/redis/redisServers';
import {
  encodeBatch,
  MAX_PAGE_MESSAGE_BYTES,
  parsePageMessage,
  REAL_ENGINE_EXTENSION,
  REAL_ENGINE_PATH,
  REAL_ENGINE_STATUS_PATH,
  type BridgeMessage,
  type PageMessage,
  type RealEngineStatus,
} from '../../platform/realEngineProtocol.ts';
import type { ServerExtension } from '../extensions.ts';
import { sendText, splitTarget } from '../respond.ts';
import { refusalOf } from '../session.ts';
import type { HostCommand, HostMessage } from './hostProtocol.ts';

/** why the real engine cannot do a fault the simulation can */
const WHY_NOT: Readonly<Partial<Record<FaultAction, string>>> = {
  slow: 'the real engine cannot slow a loopback link (Redis has no such knob)',
  lostAck: 'the real engine cannot make Redis drop an acknowledged write on purpose',
  partition: 'the real engine has no proxy between the client and a node to drop one direction of a link',
  garble: 'the real engine has no proxy between the client and a node to corrupt its replies',
};

/** the engine host as the bridge drives it (a child process; a fake in tests) */
export interface EngineHost {
  send(command: HostCommand): void;
  onMessage(fn: (m: HostMessage) => void): void;
  onExit(fn: (code: number | null, signal: string | null) => void): void;
  /** ends it (and every redis-server it started); resolves when it has exited */
  stop(): Promise<void>;
}

export interface RealEngineBridgeOptions {
  /** starts the engine host (default: the child process of engineHost.ts) */
  readonly spawnHost?: () => EngineHost;
  /** redis-server's path, or null when it is not installed (default: looked up on PATH) */
  readonly redisPath?: () => string | null;
}

const HOST_FILE = 'engineHost.ts';

/** engineHost.ts beside this file (Vite's config bundle keeps import.meta.url pointing at the source) */
function hostFile(): string {
  const here = fileURLToPath(new URL(`./${HOST_FILE}`, import.meta.url));
  return existsSync(here) ? here : resolve(process.cwd(), 'src/server/realEngine', HOST_FILE);
}

/** the child process: `node --import tsx engineHost.ts`, its own IPC channel, nothing from the request */
export function spawnEngineHost(): EngineHost {
  const file = hostFile();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file], {
    cwd: resolve(dirname(file), '../../..'),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  const exited = new Promise<void>((ok) => child.once('exit', () => ok()));
  return {
    send: (c) => {
      if (child.connected) child.send(c);
    },
    onMessage: (fn) => child.on('message', (m) => fn(m as HostMessage)),
    onExit: (fn) => child.once('exit', (code, signal) => fn(code, signal)),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      // SIGTERM: the engine's hook kills its redis-servers synchronously, then exits
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** what the real engine can do here (the status route's answer) */
export function realEngineStatus(redisPath: string | null): RealEngineStatus {
  const presets = PRESETS.filter((p) => {
    try {
      checkRealFaults(loadScenario(p.input, `preset ${p.id}`).faults);
      return true;
    } catch {
      return false;
    }
  }).map((p) => p.id);
  return {
    available: redisPath !== null,
    reason: redisPath === null ? 'redis-server is not installed on this machine (apt-get install redis-server)' : null,
    faults: FAULT_ACTIONS.flatMap((a) => (REAL_FAULTS[a] ? [{ action: a, help: REAL_FAULTS[a].help }] : [])),
    unsupported: FAULT_ACTIONS.filter((a) => REAL_FAULTS[a] === undefined).map((a) => ({ action: a, reason: WHY_NOT[a] ?? 'the real engine cannot do this fault' })),
    presets,
  };
}

/** the page's command → the host's (faults the engine cannot do are refused here) */
export function hostCommandOf(m: PageMessage): HostCommand | string {
  switch (m.type) {
    case 'start':
      return { type: 'start', id: m.id, preset: m.preset };
    case 'pause':
    case 'resume':
      return { type: m.type, id: m.id };
    case 'fault':
      if (REAL_FAULTS[m.action] === undefined) return `fault ${m.action}: ${WHY_NOT[m.action] ?? 'the real engine cannot do this fault'}`;
      return { type: 'fault', id: m.id, command: m.node === undefined ? { action: m.action } : { action: m.action, node: m.node } };
  }
}

function refuse(socket: Duplex, status: string, reason: string): void {
  socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(reason)}\r\n\r\n${reason}`);
}

export function realEngineBridge(options: RealEngineBridgeOptions = {}): ServerExtension {
  const spawnHost = options.spawnHost ?? spawnEngineHost;
  const redisPath = options.redisPath ?? redisServerPath;
  return {
    name: REAL_ENGINE_EXTENSION,
    start: ({ session }) => {
      const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_PAGE_MESSAGE_BYTES });
      /** the one session (socket + its host, once started) */
      let active: { ws: WebSocket; host: EngineHost | null; ended: Promise<void> | null } | null = null;
      /** an upgrade is being handshaken (so two at once cannot both become the session) */
      let claimed = false;

      const end = (s: NonNullable<typeof active>): Promise<void> => {
        s.ended ??= (async () => {
          if (active === s) {
            active = null;
            claimed = false;
          }
          if (s.ws.readyState === s.ws.OPEN || s.ws.readyState === s.ws.CONNECTING) s.ws.close(1001, 'session ended');
          await s.host?.stop();
        })();
        return s.ended;
      };

      const accept = (ws: WebSocket): void => {
        const s: NonNullable<typeof active> = { ws, host: null, ended: null };
        active = s;
        const say = (m: BridgeMessage) => {
          if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(m));
        };
        ws.on('message', (data, isBinary) => {
          const parsed = isBinary ? { ok: false as const, error: 'message: text frames only' } : parsePageMessage(String(data));
          if (!parsed.ok) {
            say({ kind: 'error', message: `refused: ${parsed.error}` });
            ws.close(1008, 'malformed message');
            return;
          }
          const cmd = hostCommandOf(parsed.message);
          if (typeof cmd === 'string') return say({ kind: 'done', id: parsed.message.id, error: cmd });
          if (s.host === null) {
            if (cmd.type !== 'start') return say({ kind: 'done', id: cmd.id, error: 'the real engine has not started: press Start' });
            if (redisPath() === null) return say({ kind: 'done', id: cmd.id, error: realEngineStatus(null).reason ?? 'unavailable' });
            const host = spawnHost();
            s.host = host;
            host.onMessage((m) => {
              if (ws.readyState !== ws.OPEN) return;
              if (m.kind === 'batch') ws.send(encodeBatch(m.batch));
              else say(m);
            });
            host.onExit((code, signal) => {
              if (s.ended !== null) return;
              say({ kind: 'phase', phase: 'ended', detail: `the engine exited (${signal ?? `code ${code}`})` });
              say({ kind: 'error', message: `the real engine stopped unexpectedly (${signal ?? `code ${code}`})` });
              void end(s);
            });
          }
          s.host.send(cmd);
        });
        ws.on('close', () => void end(s));
        ws.on('error', () => void end(s));
        say({ kind: 'phase', phase: 'idle', detail: 'connected to the real-engine bridge' });
      };

      return {
        routes: {
          [REAL_ENGINE_STATUS_PATH]: (req, res) => {
            const site = req.headers['sec-fetch-site'];
            if (site !== undefined && site !== 'same-origin' && site !== 'none') return sendText(res, 403, "the real engine's status is for this origin's page only");
            if (req.method !== 'GET') return sendText(res, 405, 'GET only', { Allow: 'GET' });
            const text = JSON.stringify(realEngineStatus(redisPath()));
            res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', 'Content-Length': Buffer.byteLength(text) });
            res.end(text);
          },
        },
        onUpgrade: (req, socket, head) => {
          if (splitTarget(req.url).pathname !== REAL_ENGINE_PATH) return false;
          const refusal = refusalOf(req, session);
          if (refusal !== null) {
            refuse(socket, '403 Forbidden', refusal);
            return true;
          }
          if (active !== null || claimed) {
            refuse(socket, '409 Conflict', 'a real-engine session is running already (one at a time)');
            return true;
          }
          claimed = true;
          // a handshake that fails never reaches accept(): release the claim with its socket
          socket.once('close', () => {
            if (active === null) claimed = false;
          });
          wss.handleUpgrade(req, socket, head, accept);
          return true;
        },
        close: async () => {
          if (active !== null) await end(active);
          await new Promise<void>((ok) => wss.close(() => ok()));
        },
      };
    },
  };
}
