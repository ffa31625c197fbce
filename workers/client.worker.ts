/**
 * The real ZarisClient on real time, driven by the workload generator, talking
 * to node workers over direct MessagePorts (never through the main thread).
 * Its telemetry leaves in columnar batches about once per frame. The
 * ambiguous-write audit runs here too: the client's operations held against
 * the nodes' apply notices (which arrive on the same ports), its report sent
 * to the page a few times per second.
 */
import * as Comlink from 'comlink';
import type { ClientConfig } from '../src/core/client/config';
import { ZarisClient } from '../src/core/client/ZarisClient';
import { clientViewOf } from '../src/core/cluster/views';
import { Rng } from '../src/core/rng';
import { ApplyTracker } from '../src/core/sim/applyTracker';
import { Workload } from '../src/core/sim/workload';
import type { WorkloadConfig } from '../src/core/sim/workloadConfig';
import { PortTransport } from '../src/platform/portTransport';
import { RealScheduler } from '../src/platform/realScheduler';
import { teeSink } from '../src/core/telemetry/events';
import { TelemetryBatcher } from '../src/platform/telemetryBatcher';
import type { TelemetryMessage } from '../src/platform/workerProtocol';

interface Session {
  readonly client: ZarisClient;
  readonly transport: PortTransport;
  readonly scheduler: RealScheduler;
  readonly batcher: TelemetryBatcher;
  readonly telemetry: MessagePort;
  readonly rng: Rng;
  readonly audit: ApplyTracker;
  /** the counts of the last report sent (a report goes only when one changed) */
  auditSent: string;
  workloadConfig: WorkloadConfig;
  workload: Workload | null;
  viewTimer: ReturnType<typeof setInterval>;
  lastEpoch: number;
}

let session: Session | null = null;

export interface ClientInit {
  readonly config: ClientConfig;
  readonly workload: WorkloadConfig;
  readonly segments: number;
  readonly nodes: readonly number[];
  readonly seed: number;
  /** session start on the shared wall clock (performance.timeOrigin + now) */
  readonly originMs: number;
}

const api = {
  init(init: ClientInit, telemetry: MessagePort): void {
    api.stop();
    const scheduler = new RealScheduler(init.originMs - performance.timeOrigin);
    const transport = new PortTransport();
    const batcher = new TelemetryBatcher(telemetry, 16);
    const audit = new ApplyTracker();
    transport.onApplied = (op) => audit.onApply(op);
    const client = new ZarisClient({ scheduler, transport, seedNodes: init.nodes, segmentCount: init.segments, config: init.config, sink: teeSink([batcher, audit]) });
    const s: Session = {
      client,
      transport,
      scheduler,
      batcher,
      telemetry,
      rng: Rng.seeded(init.seed),
      audit,
      auditSent: '',
      workloadConfig: init.workload,
      workload: null,
      viewTimer: setInterval(() => {
        publishView(false);
        publishAudit();
      }, 100),
      lastEpoch: -1,
    };
    session = s;
    batcher.start();
  },
  /** a connection to a node worker */
  connectNode(id: number, port: MessagePort): void {
    session?.transport.connect(id, port);
  },
  /** the node's worker was terminated: its connection resets */
  nodeGone(id: number): void {
    session?.transport.linkClosed(id);
  },
  /** fetches the first map, then starts the workload */
  start(): Promise<boolean> {
    const s = session;
    if (s === null) return Promise.resolve(false);
    if (s.workload !== null) return Promise.resolve(true);
    return new Promise((resolve) => {
      s.client.connect((ok) => {
        publishView(true);
        if (session !== s) return resolve(false);
        const w = new Workload(s.workloadConfig, s.client, s.scheduler, s.rng.stream(s.scheduler.now() | 0));
        w.onCasConflict = (op, own) => s.audit.onCasConflict(op, own);
        s.workload = w;
        w.start();
        resolve(ok);
      });
    });
  },
  pause(): void {
    const s = session;
    if (s === null) return;
    s.workload?.stop();
    s.workload = null;
  },
  /** a fault took effect at `t` (session ms, the control worker's clock): the audit notes the writes known before it */
  markFault(t: number): void {
    session?.audit.mark(t);
  },
  configure(config: ClientConfig): void {
    session?.client.configure(config);
  },
  setWorkload(workload: WorkloadConfig): void {
    const s = session;
    if (s === null) return;
    s.workloadConfig = workload;
    if (s.workload !== null) {
      api.pause();
      void api.start();
    }
  },
  stop(): void {
    const s = session;
    if (s === null) return;
    s.workload?.stop();
    clearInterval(s.viewTimer);
    s.batcher.stop();
    session = null;
  },
};

function publishView(force: boolean): void {
  const s = session;
  if (s === null) return;
  const map = s.client.map;
  if (!force && map.epoch === s.lastEpoch) return;
  s.lastEpoch = map.epoch;
  s.telemetry.postMessage({ kind: 'clientView', view: clientViewOf(map, s.scheduler.now()) } satisfies TelemetryMessage);
}

/** the audit's report, when its counts changed since the last one (and once at the start) */
function publishAudit(): void {
  const s = session;
  if (s === null) return;
  const report = s.audit.view();
  const a = report.ambiguous;
  const counts = [a.audited, a.total, report.duplicateApplies, a.casOwnWriteFound, a.casIncrementedAgain, a.lateAppliesUnmatched, a.list.length, s.audit.markCount].join();
  if (counts === s.auditSent) return;
  s.auditSent = counts;
  s.telemetry.postMessage({ kind: 'writeAudit', audit: report } satisfies TelemetryMessage);
}

export type ClientWorkerApi = typeof api;
Comlink.expose(api);
