/**
 * The real-engine bridge's wire protocol (src/server/realEngine/): what the
 * page may say over the WebSocket, what the bridge answers, and the binary
 * form of a columnar telemetry batch. The page's messages name only a preset
 * from the preset registry, a fault kind from the fault registry and a node
 * index — never a path, a command or a port — and every one is validated
 * here, on the server, before anything happens.
 */
import { z } from 'zod';
import type { ClientView, ClusterView } from '../core/cluster/views';
import { PRESET_IDS } from '../core/sim/presets';
import type { EventBatch } from '../core/telemetry/eventCodec';
import { FAULT_ACTIONS, type FaultAction } from '../core/telemetry/events';

/** the WebSocket (`?token=` required) */
export const REAL_ENGINE_PATH = '/real-engine';
/** `GET`: whether the real engine can run here, and which faults it can do */
export const REAL_ENGINE_STATUS_PATH = '/real-engine/status';
/** the extension's name in `GET /session` */
export const REAL_ENGINE_EXTENSION = 'real-engine';
/** the most a page message may weigh (bytes): commands are tiny */
export const MAX_PAGE_MESSAGE_BYTES = 1024;
/** the highest node index a fault may name (the bridge also checks the cluster has it) */
export const MAX_NODE_INDEX = 15;

const id = z.number().int().min(0).max(2 ** 31);

/** page → bridge: every command carries an id the bridge answers with `done` */
export const pageMessageSchema = z.discriminatedUnion('type', [
  /** builds the cluster of a preset, prefills it and starts its workload */
  z.object({ type: z.literal('start'), id, preset: z.enum(PRESET_IDS as [string, ...string[]]) }).strict(),
  z.object({ type: z.literal('pause'), id }).strict(),
  z.object({ type: z.literal('resume'), id }).strict(),
  z.object({ type: z.literal('fault'), id, action: z.enum(FAULT_ACTIONS), node: z.number().int().min(0).max(MAX_NODE_INDEX).optional() }).strict(),
]);
export type PageMessage = z.infer<typeof pageMessageSchema>;

/** a page message, parsed; or the one line naming what is wrong */
export function parsePageMessage(text: string): { ok: true; message: PageMessage } | { ok: false; error: string } {
  if (text.length > MAX_PAGE_MESSAGE_BYTES) return { ok: false, error: `message: at most ${MAX_PAGE_MESSAGE_BYTES} bytes` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, error: 'message: not JSON' };
  }
  const r = pageMessageSchema.safeParse(json);
  if (r.success) return { ok: true, message: r.data };
  const issue = r.error.issues[0];
  const path = issue && issue.path.length > 0 ? issue.path.join('.') : 'message';
  return { ok: false, error: `${path}: ${issue?.message ?? 'invalid'}` };
}

export type EnginePhase = 'idle' | 'starting' | 'running' | 'paused' | 'ended';

/** bridge → page (text frames; batches travel as binary frames, see {@link encodeBatch}) */
export type BridgeMessage =
  | { readonly kind: 'done'; readonly id: number; readonly error?: string }
  | { readonly kind: 'phase'; readonly phase: EnginePhase; readonly detail?: string }
  | { readonly kind: 'clusterView'; readonly view: ClusterView }
  | { readonly kind: 'clientView'; readonly view: ClientView }
  | { readonly kind: 'error'; readonly message: string };

/** what `GET /real-engine/status` answers */
export interface RealEngineStatus {
  /** redis-server is installed */
  readonly available: boolean;
  /** one line when it is not */
  readonly reason: string | null;
  /** the faults the real engine can do, with what each does on Redis */
  readonly faults: readonly { readonly action: FaultAction; readonly help: string }[];
  /** the faults it cannot do, with why */
  readonly unsupported: readonly { readonly action: FaultAction; readonly reason: string }[];
  /** presets the real engine can run (their faults are all real ones) */
  readonly presets: readonly string[];
}

export const realEngineStatusSchema = z
  .object({
    available: z.boolean(),
    reason: z.string().nullable(),
    faults: z.array(z.object({ action: z.enum(FAULT_ACTIONS), help: z.string() }).strict()),
    unsupported: z.array(z.object({ action: z.enum(FAULT_ACTIONS), reason: z.string() }).strict()),
    presets: z.array(z.string()),
  })
  .strict();

// ---- the binary form of a batch -------------------------------------------
// [u32 header bytes][header JSON {n, strings}][pad to 8][t op c f: f64 × n][a b d e s: i32 × n][type: u8 × n]

const F64 = ['t', 'op', 'c', 'f'] as const;
const I32 = ['a', 'b', 'd', 'e', 's'] as const;

export function encodeBatch(batch: EventBatch): Uint8Array {
  const header = new TextEncoder().encode(JSON.stringify({ n: batch.n, strings: batch.strings }));
  const n = batch.n;
  const start = Math.ceil((4 + header.length) / 8) * 8;
  const out = new Uint8Array(start + n * (8 * F64.length + 4 * I32.length + 1));
  new DataView(out.buffer).setUint32(0, header.length, true);
  out.set(header, 4);
  let at = start;
  for (const k of F64) {
    out.set(new Uint8Array(batch[k].buffer, batch[k].byteOffset, n * 8), at);
    at += n * 8;
  }
  for (const k of I32) {
    out.set(new Uint8Array(batch[k].buffer, batch[k].byteOffset, n * 4), at);
    at += n * 4;
  }
  out.set(batch.type.subarray(0, n), at);
  return out;
}

const headerSchema = z.object({ n: z.number().int().min(0).max(1_000_000), strings: z.array(z.string()) }).strict();

/** the batch back (its own aligned buffers); throws on a frame of another shape */
export function decodeBatch(bytes: Uint8Array): EventBatch {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const len = view.getUint32(0, true);
  const { n, strings } = headerSchema.parse(JSON.parse(new TextDecoder().decode(bytes.subarray(4, 4 + len))));
  const start = Math.ceil((4 + len) / 8) * 8;
  if (bytes.byteLength !== start + n * (8 * F64.length + 4 * I32.length + 1)) throw new Error('batch frame: wrong length');
  let at = start;
  const f64 = () => {
    const a = new Float64Array(n);
    new Uint8Array(a.buffer).set(bytes.subarray(at, at + n * 8));
    at += n * 8;
    return a;
  };
  const i32 = () => {
    const a = new Int32Array(n);
    new Uint8Array(a.buffer).set(bytes.subarray(at, at + n * 4));
    at += n * 4;
    return a;
  };
  const t = f64();
  const op = f64();
  const c = f64();
  const f = f64();
  const a = i32();
  const b = i32();
  const d = i32();
  const e = i32();
  const s = i32();
  const type = bytes.slice(at, at + n);
  return { n, t, type, op, a, b, c, d, e, f, s, strings };
}
