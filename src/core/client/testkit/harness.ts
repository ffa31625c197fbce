/**
 * Test harness for the client: a virtual scheduler, a scripted transport, a
 * recording telemetry sink and small builders for cluster maps, configs and
 * scripted answers. Used only by tests.
 */
import { NO_OWNER, type ClusterMap, type NodeId } from '../../domain/clusterMap';
import type { NodeRequest } from '../../domain/protocol';
import { segmentOf } from '../../domain/segment';
import type { KvStatus } from '../../domain/status';
import type { EventType, TelemetrySink, ZarisEvent } from '../../telemetry/events';
import { VirtualScheduler } from '../../time/virtualScheduler';
import { DEFAULT_CLIENT_CONFIG, NO_BUGS, type BugToggles, type ClientConfig } from '../config';
import { ZarisClient } from '../ZarisClient';
import { ScriptedTransport, type ScriptedAnswer } from './scriptedTransport';

/** segments in every test map */
export const SEGMENTS = 64;
/** the key most tests use, and its segment */
export const KEY = 'k';
export const KEY_SEGMENT = segmentOf(KEY, SEGMENTS);

/** Records every event; `of(type)` returns the events of one type, typed. */
export class EventLog implements TelemetrySink {
  readonly events: ZarisEvent[] = [];
  emit(event: ZarisEvent): void {
    this.events.push(event);
  }
  of<T extends EventType>(type: T): Extract<ZarisEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<ZarisEvent, { type: T }> => e.type === type);
  }
}

/**
 * A map of `SEGMENTS` segments at `epoch`: every segment owned by node 0,
 * except the key's segment, owned by `keyOwner` (NO_OWNER for none).
 */
export function mapWith(epoch: number, keyOwner: NodeId, nodes: readonly NodeId[] = [0, 1, 2]): ClusterMap {
  const owners = Array.from({ length: SEGMENTS }, (_, s) => (s === KEY_SEGMENT ? keyOwner : 0));
  return {
    epoch,
    owners,
    replicas: owners.map((o) => nodes.filter((n) => n !== o).slice(0, 1)),
    nodes: [...nodes],
  };
}

export { NO_OWNER };

export type ConfigOverrides = Partial<Omit<ClientConfig, 'bugs'>> & { readonly bugs?: Partial<BugToggles> };

/** the default configuration with some settings (and bug toggles) changed */
export function cfg(overrides: ConfigOverrides = {}): ClientConfig {
  return { ...DEFAULT_CLIENT_CONFIG, ...overrides, bugs: { ...NO_BUGS, ...overrides.bugs } };
}

export const reply = (status: KvStatus, afterMs?: number): ScriptedAnswer =>
  afterMs === undefined ? { reply: { status } } : { reply: { status }, afterMs };

/** answers the n-th data request with `seq[n]` (the last entry repeats) */
export function sequence(...seq: readonly ScriptedAnswer[]): (node: NodeId, request: NodeRequest, index: number) => ScriptedAnswer {
  return (_node, _request, index) => seq[Math.min(index, seq.length - 1)] as ScriptedAnswer;
}

/** answers by node: `table[node]`, or Ok from nodes not listed */
export function byNode(table: Readonly<Record<number, ScriptedAnswer>>): (node: NodeId) => ScriptedAnswer {
  return (node) => table[node] ?? reply('Ok');
}

export interface HarnessOptions {
  readonly config?: ConfigOverrides;
  /** data answers (default: Ok) */
  readonly answer?: (node: NodeId, request: NodeRequest, index: number) => ScriptedAnswer;
  /** the client's starting map (default: the key owned by node 0 at epoch 1) */
  readonly initialMap?: ClusterMap;
  /** what a map fetch from a node returns (default: the key owned by node 1 at epoch 2) */
  readonly mapOf?: (node: NodeId) => ClusterMap | null;
  /** attach the recording sink (default true) */
  readonly sink?: boolean;
  readonly dataLatencyMs?: number;
  readonly mapLatencyMs?: number;
  /** the scheduler's same-instant guard (default: the scheduler's) */
  readonly maxTimersAtOneInstant?: number;
}

export interface Harness {
  readonly sched: VirtualScheduler;
  readonly transport: ScriptedTransport;
  readonly log: EventLog;
  readonly client: ZarisClient;
}

export function harness(options: HarnessOptions = {}): Harness {
  const sched = new VirtualScheduler(options.maxTimersAtOneInstant === undefined ? {} : { maxTimersAtOneInstant: options.maxTimersAtOneInstant });
  const transport = new ScriptedTransport(sched, options.answer ?? (() => reply('Ok')), options.mapOf ?? (() => mapWith(2, 1)));
  if (options.dataLatencyMs !== undefined) transport.dataLatencyMs = options.dataLatencyMs;
  if (options.mapLatencyMs !== undefined) transport.mapLatencyMs = options.mapLatencyMs;
  const log = new EventLog();
  const client = new ZarisClient({
    scheduler: sched,
    transport,
    seedNodes: [0, 1, 2],
    segmentCount: SEGMENTS,
    config: cfg(options.config),
    initialMap: options.initialMap ?? mapWith(1, 0),
    ...(options.sink === false ? {} : { sink: log }),
  });
  return { sched, transport, log, client };
}

/** runs the virtual clock until nothing is pending, then hands back the promise */
export function settle<T>(sched: VirtualScheduler, p: Promise<T>): Promise<T> {
  sched.runUntilIdle();
  return p;
}

/** the delays between consecutive attempt.start events of an operation */
export function startGaps(log: EventLog): number[] {
  const starts = log.of('attempt.start').map((e) => e.t);
  return starts.slice(1).map((t, i) => t - (starts[i] as number));
}
