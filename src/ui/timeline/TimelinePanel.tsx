/**
 * The timeline panel: the waterfall (one lane per operation or per virtual
 * user), its overview strip with a brush, zoom controls, PNG / SVG export
 * with the caption strip, and the story of the operation clicked.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { LaneMode } from '../../core/replay/opStory';
import { captionLines, exportFileName, type RunIdentity } from '../export/caption';
import { downloadBlob, downloadText } from '../export/download';
import { ExportButtons } from '../export/ExportButtons';
import { timelinePng, timelineSvg } from '../export/timelineExport';
import { OpStoryView } from './OpStoryView';
import { Overview } from './Overview';
import type { LaneFilter, SceneOptions } from './scene';
import { TimelineCanvas } from './TimelineCanvas';
import type { TimelineFeed } from './timelineFeed';
import { useFeedVersion } from './useFeedVersion';
import { applyKey, fullViewport, type Bounds, type Viewport } from './viewport';
import { usePauseSpans } from '../store/StoreContext';

export interface TimelinePanelProps {
  readonly feed: TimelineFeed;
  readonly identity: RunIdentity;
  /** the caption's verdict line */
  readonly verdict: string;
  readonly cursorMs: number | null;
  readonly onSeek?: (t: number) => void;
  readonly title?: string;
  /** canvas height, css px */
  readonly height?: number;
  /** controlled viewport (null = the whole run), e.g. shared by A/B timelines */
  readonly viewport?: Viewport | null;
  readonly onViewport?: (v: Viewport | null) => void;
  readonly defaultMode?: LaneMode;
  readonly defaultFilter?: LaneFilter;
  readonly showOverview?: boolean;
  readonly testId?: string;
  readonly className?: string;
  /** the how-to line under the title (off for the second of two stacked timelines) */
  readonly showHint?: boolean;
  /** what the export caption calls the picture (default: the title) */
  readonly captionWhat?: string;
  /** receives "the timeline as on screen, as SVG" after each render (the Replay review report draws it) */
  readonly onSvgSource?: (svg: () => string) => void;
}

export function TimelinePanel(props: TimelinePanelProps) {
  const { feed, identity, verdict, cursorMs, onSeek, title = 'Timeline', height = 460, showOverview = true, testId = 'timeline', className, showHint = true } = props;
  const version = useFeedVersion(feed);
  const [ownViewport, setOwnViewport] = useState<Viewport | null>(null);
  const [mode, setMode] = useState<LaneMode>(props.defaultMode ?? 'op');
  const [filter, setFilter] = useState<LaneFilter>(props.defaultFilter ?? 'all');
  const [laneOffset, setLaneOffset] = useState(0);
  const [selectedOp, setSelectedOp] = useState<number | null>(null);
  const wrap = useRef<HTMLDivElement>(null);
  // the workload's pauses, where a store provides them (Replay: up to its cursor)
  const pauses = usePauseSpans();
  const endMs = feed.endMs;
  const bounds: Bounds = useMemo(() => ({ min: 0, max: Math.max(1, endMs) }), [endMs]);
  const controlled = props.viewport !== undefined;
  const explicit = controlled ? (props.viewport ?? null) : ownViewport;
  const viewport = explicit ?? fullViewport(bounds);
  const setViewport = useCallback(
    (v: Viewport | null) => {
      const full = v !== null && v.t0 <= bounds.min && v.t1 >= bounds.max;
      const next = full ? null : v;
      if (props.onViewport) props.onViewport(next);
      else setOwnViewport(next);
    },
    [props, bounds],
  );
  // eslint-disable-next-line react-hooks/exhaustive-deps -- the story grows with the feed
  const story = useMemo(() => (selectedOp === null ? null : feed.query.story(selectedOp)), [feed, selectedOp, version]);
  // eslint-disable-next-line react-hooks/exhaustive-deps -- how it ends (the whole recording), beside where it stands at the cursor
  const finalStory = useMemo(() => (selectedOp === null ? null : feed.recorder.story(selectedOp)), [feed, selectedOp, version]);

  const sceneOptions = (): SceneOptions => {
    const canvas = wrap.current?.querySelector('canvas.tl-canvas');
    return { viewport, mode, filter, laneOffset, width: canvas?.clientWidth ?? 1200, height: canvas?.clientHeight ?? height, cursorMs, selectedOp, hoverOp: null, asOfMs: feed.cursorMs, pauses };
  };
  const caption = () =>
    captionLines({
      identity,
      what: props.captionWhat ?? title.toLowerCase(),
      verdict,
      range: viewport,
      cursorMs,
      note: `${mode === 'vu' ? 'lane per virtual user' : 'lane per operation'}${filter === 'retried' ? ', retried operations only' : ''}${feed.recorder.sampling.factor > 1 ? `, 1 op in ${feed.recorder.sampling.factor} shown` : ''}`,
    });
  const name = (ext: string) => exportFileName(identity, title, ext, viewport);
  const exports = [
    { label: 'PNG', title: 'Save the timeline as PNG with a caption (scenario, seed, config, verdict, time range)', testId: `${testId}-export-png`, run: async () => downloadBlob(await timelinePng({ query: feed.query, retried: feed.retriedAt, options: sceneOptions(), caption: caption() }), name('png')) },
    { label: 'SVG', title: 'Save the timeline as SVG (vector) with a caption', testId: `${testId}-export-svg`, run: async () => downloadText(svgNow(), name('svg'), 'image/svg+xml') },
  ];
  const svgNow = () => timelineSvg({ query: feed.query, retried: feed.retriedAt, options: sceneOptions(), caption: caption() });
  const onSvgSource = props.onSvgSource;
  useEffect(() => onSvgSource?.(svgNow));
  const zoom = (action: 'zoomIn' | 'zoomOut' | 'reset') => setViewport(applyKey(viewport, action, bounds));
  const span = viewport.t1 - viewport.t0;

  return (
    <section className={`panel timeline-panel ${className ?? ''}`} aria-label={title} data-testid={testId}>
      <header className="panel-head">
        <div className="panel-title">
          <h2>{title}</h2>
          <span className="units">
            {(viewport.t0 / 1000).toFixed(2)} – {(viewport.t1 / 1000).toFixed(2)} s · {span < 1000 ? `${span.toFixed(span < 10 ? 2 : 0)} ms` : `${(span / 1000).toFixed(2)} s`} shown
          </span>
        </div>
        <div className="tl-tools">
          <div className="seg-switch" role="radiogroup" aria-label="Lanes">
            {(['op', 'vu'] as const).map((m) => (
              <button key={m} type="button" role="radio" aria-checked={mode === m} className={mode === m ? 'on' : ''} onClick={() => { setMode(m); setLaneOffset(0); }}>
                {m === 'op' ? 'per operation' : 'per virtual user'}
              </button>
            ))}
          </div>
          <div className="seg-switch" role="radiogroup" aria-label="Which lanes">
            {(['all', 'retried'] as const).map((f) => (
              <button key={f} type="button" role="radio" aria-checked={filter === f} className={filter === f ? 'on' : ''} onClick={() => { setFilter(f); setLaneOffset(0); }}>
                {f === 'all' ? 'all' : 'retried only'}
              </button>
            ))}
          </div>
          <div className="zoom" role="group" aria-label="Zoom">
            <button type="button" className="btn small" onClick={() => zoom('zoomOut')} aria-label="Zoom out" title="Zoom out (S, −)">−</button>
            <button type="button" className="btn small" onClick={() => zoom('zoomIn')} aria-label="Zoom in" title="Zoom in (W, +)">+</button>
            <button type="button" className="btn small" onClick={() => zoom('reset')} title="Whole run (0, Home)">Fit</button>
          </div>
          <ExportButtons actions={exports} label="Export the timeline" />
        </div>
      </header>
      <p className="panel-hint" hidden={!showHint}>
        Each bar is an attempt, coloured by its status; dotted gaps are backoffs (with their delay), hollow orange bars are waits for a map refresh, linked to the
        refresh they started (solid) or rode (dashed). Ctrl/⌘ + wheel or W/S zooms, drag or A/D pans, the wheel scrolls lanes; click an operation for its story
        {onSeek ? ', click the time axis to move the cursor' : ''}.
      </p>
      <div className={`tl-body ${story ? 'with-story' : ''}`}>
        <div className="tl-main" ref={wrap}>
          <TimelineCanvas
            feed={feed}
            viewport={viewport}
            bounds={bounds}
            onViewport={setViewport}
            mode={mode}
            filter={filter}
            laneOffset={laneOffset}
            onLaneOffset={setLaneOffset}
            cursorMs={cursorMs}
            selectedOp={selectedOp}
            onSelectOp={setSelectedOp}
            {...(onSeek ? { onSeek } : {})}
            height={height}
            label={`${title}: ${identity.scenario}, ${(viewport.t0 / 1000).toFixed(2)} to ${(viewport.t1 / 1000).toFixed(2)} seconds`}
            testId={`${testId}-canvas`}
          />
          {showOverview ? <Overview feed={feed} viewport={viewport} bounds={bounds} onViewport={setViewport} cursorMs={cursorMs} /> : null}
        </div>
        {story ? <OpStoryView story={story} final={finalStory} cursorMs={feed.cursorMs === Infinity ? null : feed.cursorMs} onClose={() => setSelectedOp(null)} /> : null}
        {selectedOp !== null && story === null ? (
          <p className="panel-hint">Operation {selectedOp} was not recorded (sampled out).</p>
        ) : null}
      </div>
    </section>
  );
}
