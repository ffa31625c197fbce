/**
 * The whole story of one operation, read from the recording: every attempt
 * (node, epoch, status, latency), every refresh wait (started, rode or
 * debounced, and how the refresh went), every backoff, and why it ended.
 */
import type { OpStep, OpStory } from '../../core/replay/opStory';
import { END_REASON_STYLE, OUTCOME_STYLE, PHASE_STYLE } from '../theme/statusColors';
import { endReasonText } from './tooltip';
import { formatDuration, formatTick } from './viewport';

const at = (t: number): string => formatTick(t, 1);

function Outcome({ o }: { o: OpStory['outcome'] }) {
  if (o === null) return <span className="tag muted">in flight</span>;
  return (
    <span className="tag" style={{ borderColor: OUTCOME_STYLE[o].color, color: OUTCOME_STYLE[o].color }}>
      {OUTCOME_STYLE[o].label}
    </span>
  );
}

/** a refresh wait in the refresh lane's numbering */
function waitWhere(s: Extract<OpStep, { kind: 'refreshWait' }>): string {
  const no = s.refreshNo === null ? null : `refresh #${s.refreshNo}`;
  switch (s.how) {
    case 'started':
      return `started ${no ?? 'a refresh'}`;
    case 'coalesced':
      return `rode ${no ?? 'a refresh'} (coalesced)`;
    case 'debounced':
      return no === null ? 'debounced: the map was fetched moments before' : `debounced: the map was just fetched by ${no}`;
    default:
      return s.resumedMs === null ? 'waiting for a refresh' : 'asked for a refresh';
  }
}

function StepRow({ s }: { s: OpStep }) {
  switch (s.kind) {
    case 'attempt':
      return (
        <tr>
          <td>
            <span className="swatch" style={{ background: s.outcome ? OUTCOME_STYLE[s.outcome].color : '#cbd5e1' }} /> attempt {s.attempt}
          </td>
          <td className="num">{at(s.startMs)}</td>
          <td className="num">{s.latencyMs === null ? '—' : formatDuration(s.latencyMs)}</td>
          <td>
            node {s.node ?? '—'} · epoch {s.epoch}
          </td>
          <td>
            <Outcome o={s.outcome} />
          </td>
        </tr>
      );
    case 'refreshWait':
      return (
        <tr className="wait">
          <td>
            <span className="swatch hollow" style={{ borderColor: PHASE_STYLE.refreshWait.color }} /> map refresh
          </td>
          <td className="num">{at(s.requestMs)}</td>
          <td className="num">{s.resumedMs === null ? '—' : formatDuration(s.resumedMs - s.requestMs)}</td>
          <td>{waitWhere(s)}</td>
          <td>
            after {s.cause}
            {s.abandoned ? ' · gave up waiting' : s.refreshOk === false ? ' · refresh failed' : s.refreshOk === true ? ' · map fetched' : ''}
          </td>
        </tr>
      );
    case 'backoff':
      return (
        <tr className="backoff">
          <td>
            <span className="swatch dashed" style={{ borderColor: OUTCOME_STYLE[s.outcome].color }} /> backoff
          </td>
          <td className="num">{at(s.startMs)}</td>
          <td className="num">{formatDuration(s.delayMs)}</td>
          <td>after attempt {s.afterAttempt}</td>
          <td>after {s.outcome}</td>
        </tr>
      );
  }
}

export interface OpStoryViewProps {
  /** the story as at the cursor */
  readonly story: OpStory;
  /** the whole recording's story of the same op (how it ends, if it does) */
  readonly final?: OpStory | null;
  /** the replay's cursor (null: no cursor, the story is the whole recording's) */
  readonly cursorMs?: number | null;
  readonly onClose: () => void;
}

/** why it ended, or where it stands: in flight at the cursor, or never finished */
function whyText(story: OpStory, final: OpStory | null, cursorMs: number | null): { readonly label: string; readonly text: string } {
  const attempts = story.attempts.length;
  if (story.reason !== null) return { label: END_REASON_STYLE[story.reason].label, text: endReasonText(story.reason, attempts, story.budget) };
  if (final !== null && final.reason !== null && final.endMs !== null && cursorMs !== null)
    return {
      label: 'in flight at the cursor',
      text: `${attempts} attempt${attempts === 1 ? '' : 's'} made by ${at(cursorMs)}; it ends at ${at(final.endMs)}: ${endReasonText(final.reason, final.attempts.length, final.budget)}`,
    };
  return { label: 'did not finish', text: `did not finish before the run ended (${attempts} attempt${attempts === 1 ? '' : 's'} made)` };
}

export function OpStoryView({ story, final = null, cursorMs = null, onClose }: OpStoryViewProps) {
  const reason = story.reason;
  const attempts = story.attempts.length;
  const why = whyText(story, final, cursorMs);
  return (
    <section className="op-story" aria-label={`Story of operation ${story.op}`} data-testid="op-story">
      <header>
        <h3>
          op {story.op} · {story.kind} <code>{story.key}</code>
        </h3>
        <Outcome o={story.outcome} />
        <button type="button" className="btn small ghost" onClick={onClose} aria-label="Close the story">
          ✕
        </button>
      </header>
      <p className="why" style={{ borderColor: reason ? END_REASON_STYLE[reason].color : '#64748b' }}>
        <b>{why.label}:</b> {why.text}
        {story.latencyMs !== null ? ` · took ${formatDuration(story.latencyMs)}` : ''}
      </p>
      <dl className="facts">
        <div>
          <dt>segment</dt>
          <dd>{story.segment}</dd>
        </div>
        <div>
          <dt>virtual user</dt>
          <dd>{story.vu ?? '—'}</dd>
        </div>
        <div>
          <dt>condition</dt>
          <dd>{story.cond ? (story.cond.ifAbsent ? 'ifAbsent' : `ifMatchVersion ${story.cond.ifMatchVersion}`) : 'none'}</dd>
        </div>
        <div>
          <dt>started</dt>
          <dd>{at(story.startMs)}</dd>
        </div>
        <div>
          <dt>deadline</dt>
          <dd>{story.deadline === null ? 'none' : at(story.deadline)}</dd>
        </div>
        <div>
          <dt>attempt budget</dt>
          <dd>
            {story.budget ?? '—'}
            {story.budget !== null && attempts > story.budget ? <span className="over"> · {attempts} made{reason === null && cursorMs !== null ? ' by the cursor' : ''}</span> : null}
          </dd>
        </div>
      </dl>
      <div className="steps">
        <table>
          <thead>
            <tr>
              <th>step</th>
              <th>at</th>
              <th>took</th>
              <th>where</th>
              <th>result</th>
            </tr>
          </thead>
          <tbody>
            {story.steps.map((s, i) => (
              <StepRow key={i} s={s} />
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
