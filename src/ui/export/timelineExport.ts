/**
 * PNG and SVG of the timeline as it is on screen (same viewport, lanes and
 * selection), drawn again through the same scene at export size, with the
 * caption strip and a legend underneath.
 */
import type { Outcome } from '../../core/domain/status';
import { OUTCOME_STYLE, PHASE_STYLE, REFRESH_STYLE } from '../theme/statusColors';
import { drawTimeline, TIMELINE_THEME } from '../timeline/drawTimeline';
import { CanvasPainter, SvgPainter } from '../timeline/painter';
import type { RetriedQuery } from '../timeline/retriedIndex';
import { buildScene, type Scene, type SceneOptions, type TimelineQuery } from '../timeline/scene';
import { captionHeight, drawCaption, type LegendItem } from './caption';
import { canvasToPng } from './download';

/** pixel density of PNG exports */
export const EXPORT_SCALE = 2;

/** the legend for what the scene shows: outcomes present, waits, backoffs, refreshes */
export function timelineLegend(scene: Scene): LegendItem[] {
  const seen = new Set<Outcome>();
  for (const r of scene.rows) for (const b of r.lane.bars) if (b.outcome) seen.add(b.outcome);
  const items: LegendItem[] = [...seen].map((o) => ({ label: OUTCOME_STYLE[o].label, color: OUTCOME_STYLE[o].color }));
  items.push(
    { label: 'waiting for a map refresh', color: PHASE_STYLE.refreshWait.color, shape: 'hollow' },
    { label: 'backoff (delay)', color: TIMELINE_THEME.muted, shape: 'dash' },
    { label: 'map refresh executed', color: REFRESH_STYLE.executed.color },
  );
  return items;
}

/** export size in css px: the plot plus the caption */
export function exportSize(width: number, height: number, lines: number, legendItems: number): { readonly width: number; readonly height: number; readonly captionY: number } {
  return { width, height: height + captionHeight(lines, legendItems), captionY: height };
}

export interface TimelineExportInput {
  readonly query: TimelineQuery;
  readonly retried: RetriedQuery | null;
  readonly options: SceneOptions;
  readonly caption: readonly string[];
}

export async function timelinePng({ query, retried, options, caption }: TimelineExportInput, scale = EXPORT_SCALE): Promise<Blob> {
  const scene = buildScene(query, { ...options, hoverOp: null }, retried);
  const legend = timelineLegend(scene);
  const size = exportSize(options.width, options.height, caption.length, legend.length);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(size.width * scale);
  canvas.height = Math.round(size.height * scale);
  const ctx = canvas.getContext('2d');
  if (ctx === null) throw new Error('no 2D canvas available for the export');
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  const p = new CanvasPainter(ctx);
  drawTimeline(p, scene);
  drawCaption(p, caption, legend, size.captionY, size.width);
  return canvasToPng(canvas);
}

export function timelineSvg({ query, retried, options, caption }: TimelineExportInput): string {
  const scene = buildScene(query, { ...options, hoverOp: null }, retried);
  const legend = timelineLegend(scene);
  const size = exportSize(options.width, options.height, caption.length, legend.length);
  const p = new SvgPainter();
  drawTimeline(p, scene);
  drawCaption(p, caption, legend, size.captionY, size.width);
  return p.toString(size.width, size.height, TIMELINE_THEME.bg);
}
