import { safeAnswerOf, type WriteAuditReport } from '../core/sim/applyTracker';
import { servedPerSegment, type RunSummary } from '../core/sim/runScenario';

const pad = (s: string | number, n: number): string => String(s).padStart(n);

/** a spark line of a series (▁▂▃▄▅▆▇█; a blank where there is no value), scaled to `max` (default: its own peak) */
export function sparkline(values: readonly (number | null)[], max = Math.max(1, ...values.map((v) => v ?? 0))): string {
  const ticks = '▁▂▃▄▅▆▇█';
  return values.map((v) => (v === null ? ' ' : ticks[Math.min(7, Math.floor((v / Math.max(max, 1e-9)) * 7.999))])).join('');
}


/** The human summary the CLI prints without --json. */
/** ignored faults the table lists one per line */
const MAX_IGNORED_LISTED = 10;

export function formatSummary(s: RunSummary): string {
  const lines: string[] = [];
  const c = s.client;
  const bugs = Object.entries(c.bugs).filter(([, on]) => on).map(([k]) => k);
  const real = s.engine;
  lines.push(
    real === undefined
      ? `Zaris Churn Lab — ${s.scenario} (seed ${s.seed}, ${s.durationMs / 1000} s virtual)`
      : `Zaris Churn Lab — ${s.scenario} (seed ${s.seed}, ${s.durationMs / 1000} s real time on Redis ${real.redisVersion}, ${real.client === 'zaris' ? 'Zaris client' : 'ioredis'})`,
  );
  if (real !== undefined) {
    lines.push(
      `engine: ${real.servers} redis-server(s), cluster-node-timeout ${real.nodeTimeoutMs} ms, ${real.waitReplicas > 0 ? `WAIT ${real.waitReplicas} before acknowledging writes` : 'asynchronous replication (no WAIT)'}; ` +
        `prefill ${real.prefill.keys} keys at ${real.prefill.opsPerSec} ops/s`,
    );
    lines.push(`rate: ${real.rate.note}`);
  }
  if (real?.client === 'ioredis') {
    const options = real.clientNotes.options;
    lines.push(
      options !== undefined
        ? `client: ioredis Cluster with ${String(options)} (the rest its defaults); the Zaris client settings do not apply`
        : 'client: ioredis Cluster with its defaults (maxRedirections 16, retryDelayOnFailover / ClusterDown / TryAgain 100 ms, no command timeout); the Zaris client settings do not apply',
    );
  } else {
    lines.push(
      `client${s.changes ? ' at the start' : ''}: maxAttempts ${c.maxAttempts}, backoff ${c.backoffMillis} ms, deadline ${c.operationTimeoutMs === null ? 'infinite' : `${c.operationTimeoutMs} ms`}, ` +
        `retries ${c.disableRetries ? 'disabled' : 'on'}, refresh wait ${c.refreshWaitBudgetMs} ms, bugs: ${bugs.length ? bugs.join(', ') : 'none'}`,
    );
  }
  for (const ch of s.changes ?? []) {
    const what = [
      ...(ch.client !== undefined ? [`client ${JSON.stringify(ch.client)}`] : []),
      ...(ch.workload !== undefined ? [`workload ${JSON.stringify(ch.workload)}`] : []),
      ...(ch.paused !== undefined ? [ch.paused ? 'workload paused' : 'workload resumed'] : []),
    ];
    lines.push(`  at ${(ch.atMs / 1000).toFixed(1)} s: ${what.join(', ')}`);
  }
  lines.push('');
  lines.push(`operations   ${pad(s.ops.total, 9)} total  ${pad(s.ops.ok, 9)} ok  ${pad(s.ops.realAnswers, 7)} real answers  ${pad(s.ops.failed, 7)} failed  ${pad(s.ops.inFlightAtEnd, 5)} in flight at end`);
  lines.push(`attempts     ${pad(s.attempts.total, 9)} total  ${pad(s.attempts.retries, 9)} retries  max per op ${s.attempts.maxPerOp}${s.attempts.maxPerOpInFlight > s.attempts.maxPerOp ? ` of ended ops; ${s.attempts.maxPerOpInFlight} started by one still in flight at the end` : ''}`);
  lines.push(
    `refresh      ${pad(s.refresh.requested, 9)} requested  ${s.refresh.executed} executed  ${s.refresh.coalesced} coalesced  ${s.refresh.debounced} debounced  ${s.refresh.waitAbandoned} abandoned  (peak ${s.refresh.peakRequestsPerSecond}/s requested, ${s.refresh.peakExecutedPerSecond}/s executed${real?.client === 'ioredis' ? '' : `; ceiling ${s.refresh.debounceCeilingPerSecond}/s after a successful refresh${s.refresh.peakExecutedPerSecond > s.refresh.debounceCeilingPerSecond ? ', failed ones retry at once' : ''}`})`,
  );
  lines.push(`latency ms   p50 ${s.latencyMs.p50}  p95 ${s.latencyMs.p95}  p99 ${s.latencyMs.p99}  max ${s.latencyMs.max}`);
  lines.push(`throughput   ${sparkline(s.throughput.series)}  ops/s per second (peak ${Math.max(0, ...s.throughput.series)})`);
  // per segment on one scale: at a fault "healthy" loses the traffic of the segments it names without any segment serving less
  const { healthy, affected } = servedPerSegment(s.throughput);
  const perMax = Math.max(0, ...healthy.map((v) => v ?? 0), ...affected.map((v) => v ?? 0));
  lines.push(`  healthy    ${sparkline(healthy, perMax)}  served ops/s per segment, one scale (peak ${perMax >= 10 ? Math.round(perMax) : perMax.toFixed(2)})`);
  lines.push(`  affected   ${sparkline(affected, perMax)}  (blank: no segment a fault named yet)`);
  lines.push(`  failed     ${sparkline(s.throughput.failed)}`);
  lines.push('');
  lines.push('final outcome of operations:');
  for (const [k, v] of Object.entries(s.ops.byStatus)) if (v > 0) lines.push(`  ${k.padEnd(22)} ${pad(v, 9)}`);
  lines.push('why operations ended:');
  for (const [k, v] of Object.entries(s.ops.endReasons)) if (v > 0) lines.push(`  ${k.padEnd(22)} ${pad(v, 9)}`);
  lines.push('attempt outcomes:');
  for (const [k, v] of Object.entries(s.statuses)) if (v > 0) lines.push(`  ${k.padEnd(22)} ${pad(v, 9)}`);
  if (real !== undefined) {
    lines.push('real engine:');
    lines.push(`  ASK redirections followed: ${real.asks}; map fetches served by the servers: ${Object.entries(real.serverCalls).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    for (const w of real.faultWindows) {
      lines.push(
        `  ${w.action} node ${w.node} at ${(w.atMs / 1000).toFixed(1)} s: repaired after ${w.repairedAfterMs === null ? '(not within the run)' : `${w.repairedAfterMs} ms`}; meanwhile ${w.okOpsPerSec} ok ops/s, ${w.failedOps} failed ops`,
      );
    }
    lines.push(`  longest stall (< 10 % of the pre-fault rate): ${real.stallMs} ms`);
    lines.push(`  lost acknowledged writes: ${real.lostAckedWrites.count}${real.lostAckedWrites.count > 0 ? ` (ops ${real.lostAckedWrites.ops.join(', ')})` : ''}`);
    lines.push(`  client: ${Object.entries(real.clientNotes).map(([k, v]) => `${k} ${v}`).join('; ')}`);
    lines.push(`  ${real.cleanup}`);
  }
  lines.push(`CAS re-reads: ${s.workload.casRereads}; create-once already done: ${s.workload.createOnceAlreadyDone}; rejected arrivals: ${s.workload.rejected}`);
  if (real !== undefined) lines.push('ambiguous writes: not observable on Redis (its servers do not report applies)');
  else lines.push(...formatAmbiguousWrites(s.writes));
  const ignored = s.ignoredFaults ?? [];
  if (ignored.length > 0) {
    lines.push(`ignored faults: ${ignored.length} did nothing when they fired`);
    for (const f of ignored.slice(0, MAX_IGNORED_LISTED)) lines.push(`  ${f.action} of node ${f.node} at ${(f.atMs / 1000).toFixed(3)} s: ${f.why}`);
    if (ignored.length > MAX_IGNORED_LISTED) lines.push(`  … and ${ignored.length - MAX_IGNORED_LISTED} more (all in the JSON summary's ignoredFaults)`);
  }
  lines.push('');
  lines.push(`invariants: ${s.invariants.ok ? 'OK' : 'VIOLATED'}`);
  for (const ch of s.invariants.checks) {
    const mark = ch.ok ? 'ok  ' : ch.expected ? 'bug ' : 'FAIL';
    lines.push(`  [${mark}] ${ch.name}: ${ch.detail}${ch.examples.length && !ch.ok ? ` — e.g. ops ${ch.examples.join(', ')}` : ''}`);
  }
  return `${lines.join('\n')}\n`;
}

const CASE_LABEL = {
  appliedReportedFailed: 'applied, reported failed',
  appliedTwice: 'applied twice',
  ownConflict: 'Conflict from its own earlier attempt',
} as const;

/** the ambiguous-write audit: counts, then one line per listed write (op id first) */
export function formatAmbiguousWrites(w: WriteAuditReport, maxLines = 12): string[] {
  const a = w.ambiguous;
  const lines = [
    `ambiguous writes (outcome unknown to the client): ${a.total} of ${a.audited} writes — ${a.byCase.appliedReportedFailed} applied but reported failed, ${a.byCase.appliedTwice} applied twice, ${a.byCase.ownConflict} Conflict from their own earlier attempt` +
      ` (guards: ${a.byGuard.ifMatchVersion} ifMatchVersion, ${a.byGuard.ifAbsent} ifAbsent, ${a.byGuard.none} none; CAS loops: ${a.casOwnWriteFound} found their own write, ${a.casIncrementedAgain} incremented again)`,
  ];
  const answers = new Map<string, string>();
  for (const x of a.list.slice(0, maxLines)) {
    const cas = x.cas === undefined ? '' : x.cas === 'ownWriteFound' ? ', CAS found its own write' : ', CAS incremented again';
    lines.push(`  op ${pad(x.op, 8)}  ${CASE_LABEL[x.case].padEnd(37)} ${x.kind} ${x.key} [${x.guard}] applied ${x.applies}× → ${x.outcome} after ${x.attempts} attempt(s) at ${(x.t / 1000).toFixed(3)} s${cas}`);
    answers.set(`${CASE_LABEL[x.case]} [${x.guard}]${cas}`, safeAnswerOf(x));
  }
  const more = a.total - Math.min(a.list.length, maxLines);
  if (more > 0) lines.push(`  … and ${more} more (all listed up to ${a.list.length} in --json: writes.ambiguous.list)`);
  if (answers.size > 0) lines.push('  what the condition makes of it:');
  for (const [k, v] of answers) lines.push(`    ${k}: ${v}`);
  if (a.lateAppliesUnmatched > 0) lines.push(`  ${a.lateAppliesUnmatched} late apply(ies) of writes that had ended too long ago to attribute`);
  return lines;
}
