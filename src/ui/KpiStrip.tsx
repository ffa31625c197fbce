/**
 * The headline figures, shared by the Live and Replay headers. Each tile
 * says what it counts and over which window ("last 1 s", "now"); the first
 * tile judges service (core/domain/service), so a client that stalls
 * everything reads worse than one that fails fast. While the live workload
 * is paused the rates read 0 and say "paused".
 */
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { STALL_THRESHOLD_MS } from '../core/domain/service';
import { fellBelowBaseline, openRecord, type FaultEvidence } from '../core/telemetry/faultEvidence';
import { formatNumber } from './panels/chart/format';
import { formatCount, formatLatency, formatSeconds, formatShare } from './store/numberFormat';
import { HEADLINE_WINDOW_LABEL, selectDebounceCeiling, selectHeadline, selectPoolSize, selectStaleCount, type Headline } from './store/selectors';
import type { DashboardState } from './store/dashboardStore';
import { useDashboard } from './store/StoreContext';

export interface Kpi {
  readonly label: string;
  readonly value: string;
  /** what the figure counts over: its window, or "now" */
  readonly caption: string;
  readonly tone?: 'bad' | 'warn' | 'ok';
}

const SERVICE_TONE = { idle: undefined, healthy: 'ok', degraded: 'warn', notServing: 'bad' } as const;
/**
 * a whole percent, one decimal under 10 % and from 99.5 % (a whole one would say "100 %" for less than all:
 * 99.7 % of demand is not 100 %); rounded as the status line beside rounds it ({@link formatShare}), so both say 99.7
 */
export function tilePercent(share: number | null): string {
  if (share === null) return '—';
  return formatShare(share, share < 0.1 || (share < 1 && Math.round(share * 1000) >= 995) ? 1 : 0);
}

/**
 * The served rate; under half of the open fault's rate before it, the caption says how far it fell
 * (the served share beside it is of demand, and closed-loop users waiting on their attempts ask for less).
 */
function servedRateTile(h: Headline, win: string, preFaultPerSec: number | null): Kpi {
  const tile: Kpi = { label: 'ops / s served', value: formatNumber(h.servedPerSec), caption: `real answers · ${win}` };
  if (!h.running || !fellBelowBaseline(h.servedPerSec, preFaultPerSec)) return tile;
  return { ...tile, caption: `${tile.caption} · ${tilePercent(h.servedPerSec / preFaultPerSec)} of ${formatNumber(preFaultPerSec)} before the fault`, tone: 'bad' };
}

/** the open fault's served ops/s before it (the last record, while it is open), or null */
export function preFaultRate(evidence: readonly FaultEvidence[]): number | null {
  return openRecord(evidence)?.servedBaselinePerSec ?? null;
}

/** the tiles for a headline (pure: the e2e tests compare the DOM with it) */
export function headlineKpis(
  h: Headline,
  extra: {
    readonly ceiling: number | null;
    readonly stale: number;
    readonly poolSize: number;
    /** closed-loop users in the pool: they keep their slots filled by design, so a full pool of them only is no alarm */
    readonly closedLoopUsers?: number;
    /** what a stopped workload is called (default "paused") */
    readonly stopped?: 'paused' | 'not started';
    /** the real engine: hash slots per drawn cell (its keyspace is 16,384 slots drawn as cells; staleness is counted per cell) */
    readonly slotsPerCell?: number;
    /** the open fault's served ops/s before it (null: no open fault, or no baseline) */
    readonly preFaultPerSec?: number | null;
  },
): Kpi[] {
  const win = h.running ? HEADLINE_WINDOW_LABEL : (extra.stopped ?? 'paused');
  const rate = (v: number) => formatNumber(v);
  const tone = SERVICE_TONE[h.service.verdict];
  return [
    {
      label: 'served',
      value: tilePercent(h.service.share),
      // demand counts stalled operations as not served (yet): the tile can read below 100 % while "not served / s" is 0
      caption: h.running ? `of demand · stalled count as not served · ${win}` : `${win} · nothing asked`,
      ...(tone !== undefined ? { tone } : {}),
    },
    servedRateTile(h, win, extra.preFaultPerSec ?? null),
    {
      label: 'not served / s',
      value: rate(h.failedPerSec + h.rejectedPerSec),
      caption: h.running ? `${rate(h.failedPerSec)} failed + ${rate(h.rejectedPerSec)} turned away · ${win}` : win,
      ...(h.failedPerSec + h.rejectedPerSec > 0 ? { tone: 'bad' as const } : {}),
    },
    {
      label: `stalled > ${formatSeconds(STALL_THRESHOLD_MS)}`,
      value: formatCount(h.stalled),
      caption: 'now · in flight too long',
      ...(h.stalled > 0 ? { tone: 'bad' as const } : {}),
    },
    {
      label: 'in flight',
      value: formatCount(h.inFlight),
      caption: extra.poolSize > 0 ? (extra.poolSize === extra.closedLoopUsers ? `now · ${formatCount(extra.poolSize)} closed-loop users` : `now · pool ${formatCount(extra.poolSize)}`) : 'now',
      // a full pool turns arrivals away only where an open loop has slots in it
      ...(extra.poolSize > 0 && extra.poolSize !== extra.closedLoopUsers && h.inFlight >= extra.poolSize ? { tone: 'bad' as const } : {}),
    },
    { label: 'retries / s', value: rate(h.retriesPerSec), caption: `at attempt start · ${win}` },
    {
      label: 'refreshes / s',
      value: rate(h.refreshesPerSec),
      caption: h.running ? `${extra.ceiling !== null ? `ceiling ${formatNumber(extra.ceiling)} · ` : ''}${rate(h.refreshRequestsPerSec)} asked · ${win}` : win,
      ...(extra.ceiling !== null && h.refreshesPerSec > extra.ceiling ? { tone: 'warn' as const } : {}),
    },
    {
      label: 'p99 latency',
      value: h.p99Ms === null ? '—' : formatLatency(h.p99Ms),
      // in a storm the slowest operations have not ended: the tail of the ended ones is not theirs
      caption: `ops ended${h.running && h.stalled > 0 ? ', not the stalled' : ''} · ${win}`,
    },
    extra.slotsPerCell === undefined
      ? { label: 'stale segments', value: String(extra.stale), caption: "now · client's map" }
      : { label: 'stale cells', value: String(extra.stale), caption: `now · client's map · ${Number.isInteger(extra.slotsPerCell) ? '' : '≈ '}${formatCount(Math.round(extra.slotsPerCell))} hash slots each` },
  ];
}

type KpiSource = Pick<DashboardState, 'clientConfig' | 'snapshot' | 'cluster' | 'client' | 'running' | 'everStarted' | 'workload'>;

/**
 * The headline KPIs of a dashboard store's state (the headers, and the Replay report at its cursor).
 * The rates follow the store's `running`: Live's Pause, or in a Replay the recorded workload at the
 * cursor (a recorded session's pause), so a cursor after a pause does not show the rates before it.
 */
export function kpisOf(s: KpiSource, headline: Headline = selectHeadline(s.snapshot, s.running)): Kpi[] {
  const ceiling = selectDebounceCeiling(s.clientConfig.refreshDebounceMs, s.clientConfig.bugs.noRefreshDebounce);
  const stopped = !s.everStarted ? ('not started' as const) : ('paused' as const);
  const slots = s.cluster?.slots;
  const cells = s.cluster?.owners.length ?? 0;
  return headlineKpis(headline, {
    ceiling,
    stale: selectStaleCount(s.cluster, s.client),
    poolSize: selectPoolSize(s.workload),
    closedLoopUsers: s.workload.concurrency,
    stopped,
    preFaultPerSec: preFaultRate(s.snapshot.evidence),
    ...(slots !== undefined && cells > 0 ? { slotsPerCell: slots / cells } : {}),
  });
}

/** the headline KPIs of the dashboard store in context */
export function useHeadlineKpis(): { kpis: Kpi[]; version: number } {
  const st = useDashboard(
    useShallow((s): KpiSource => ({ clientConfig: s.clientConfig, snapshot: s.snapshot, cluster: s.cluster, client: s.client, running: s.running, everStarted: s.everStarted, workload: s.workload })),
  );
  const h = useMemo(() => selectHeadline(st.snapshot, st.running), [st.snapshot, st.running]);
  return { kpis: kpisOf(st, h), version: st.snapshot.version };
}

/** the headline KPIs as the headers show them */
export function KpiStrip({ label }: { label?: string }) {
  const { kpis, version } = useHeadlineKpis();
  // data-version: the snapshot these figures come from (tests compare the DOM with that snapshot)
  return (
    <dl className="kpis" aria-label={label ?? 'Headline figures'} data-version={version}>
      {kpis.map((k) => (
        <div key={k.label} className={`kpi ${k.tone ?? ''}`}>
          <dt>{k.label}</dt>
          <dd className="kpi-value">{k.value}</dd>
          <dd className="kpi-win">{k.caption}</dd>
        </div>
      ))}
    </dl>
  );
}
