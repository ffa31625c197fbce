import { useMemo, useState, type UIEvent } from 'react';
import { OUTCOMES, type Outcome } from '../../core/domain/status';
import { EVENT_TYPES, type EventType } from '../../core/telemetry/events';
import { LOG_CAPACITY } from '../store/layout';
import { describeEvent, keyspaceUnit, NO_LOG_FILTER, opOf, outcomeOf, selectFilteredEvents, type LogFilter } from '../store/selectors';
import { useDashboard } from '../store/StoreContext';
import type { LoggedEvent } from '../store/snapshot';
import { OUTCOME_STYLE } from '../theme/statusColors';
import { ChartFrame } from './chart/ChartFrame';
import { usePanelSnapshot } from './visibility';

const ROW_PX = 24;
const VIEW_PX = 360;
const OVERSCAN = 8;

/** the most recent events, newest first: a virtualized list (only visible rows are rendered) */
export function EventLogPanel() {
  const live = usePanelSnapshot().events;
  const keyspace = useDashboard((s) => keyspaceUnit(s.cluster));
  const [frozen, setFrozen] = useState<readonly LoggedEvent[] | null>(null);
  const [filter, setFilter] = useState<LogFilter>(NO_LOG_FILTER);
  const [scrollTop, setScrollTop] = useState(0);
  const events = frozen ?? live;
  const rows = useMemo(() => selectFilteredEvents(events, filter), [events, filter]);
  const first = Math.max(0, Math.floor(scrollTop / ROW_PX) - OVERSCAN);
  const last = Math.min(rows.length, Math.ceil((scrollTop + VIEW_PX) / ROW_PX) + OVERSCAN);
  const visible = rows.slice(first, last);
  const onScroll = (e: UIEvent<HTMLDivElement>) => setScrollTop(e.currentTarget.scrollTop);
  return (
    <ChartFrame
      title="Event log"
      units={`newest first · last ${LOG_CAPACITY.toLocaleString('en')} events`}
      aside={
        <span className="stat">
          {rows.length.toLocaleString('en')} <small>of {events.length.toLocaleString('en')} shown</small>
        </span>
      }
    >
      <div className="log-filters" role="search">
        <label>
          op id
          <input inputMode="numeric" placeholder="any" value={filter.op} onChange={(e) => setFilter({ ...filter, op: e.target.value })} aria-label="Filter by op id" />
        </label>
        <label>
          event
          <select value={filter.type} onChange={(e) => setFilter({ ...filter, type: e.target.value as EventType | 'all' })} aria-label="Filter by event type">
            <option value="all">all types</option>
            {EVENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {t}
              </option>
            ))}
          </select>
        </label>
        <label>
          status
          <select value={filter.outcome} onChange={(e) => setFilter({ ...filter, outcome: e.target.value as Outcome | 'all' })} aria-label="Filter by status">
            <option value="all">any status</option>
            {OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {o}
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="btn small" onClick={() => setFrozen(frozen === null ? live : null)} aria-pressed={frozen !== null}>
          {frozen === null ? 'Freeze' : 'Follow live'}
        </button>
        {filter !== NO_LOG_FILTER ? (
          <button type="button" className="btn small ghost" onClick={() => setFilter(NO_LOG_FILTER)}>
            Clear filters
          </button>
        ) : null}
      </div>
      <div className="log-head" aria-hidden="true">
        <span>t (s)</span>
        <span>event</span>
        <span>op</span>
        <span>status</span>
        <span>details</span>
      </div>
      <div className="log-view" style={{ height: VIEW_PX }} onScroll={onScroll} role="list" aria-label="events">
        <div style={{ height: rows.length * ROW_PX, position: 'relative' }}>
          {rows.length === 0 ? <div className="empty small">{events.length === 0 ? 'No events yet.' : 'No events match the filters.'}</div> : null}
          {visible.map((le, i) => {
            const e = le.event;
            const outcome = outcomeOf(e);
            return (
              <div key={le.seq} role="listitem" className="log-row" style={{ top: (first + i) * ROW_PX, height: ROW_PX }}>
                <span className="num">{(e.t / 1000).toFixed(3)}</span>
                <span className={`etype ${e.type.split('.')[0] ?? ''}`}>{e.type}</span>
                <span className="num">{opOf(e) ?? ''}</span>
                <span style={outcome ? { color: OUTCOME_STYLE[outcome].color } : undefined}>{outcome ?? ''}</span>
                <span className="details">{describeEvent(e, keyspace)}</span>
              </div>
            );
          })}
        </div>
      </div>
    </ChartFrame>
  );
}
