/**
 * PNG and SVG of a dashboard panel (DOM + Recharts SVG) with the caption
 * strip. html-to-image rasterises / serialises the element; it is loaded
 * only when someone exports, so it stays out of the initial bundle.
 */
import { CanvasPainter, SvgPainter } from '../timeline/painter';
import { captionHeight, drawCaption, exportFileName, type RunIdentity } from './caption';
import { downloadBlob, downloadText } from './download';
import type { ExportAction } from './ExportButtons';
import { canvasToPng } from './download';
import { EXPORT_SCALE } from './timelineExport';

const BACKGROUND = '#0b1120';

/** skips the export buttons themselves */
const filter = (node: HTMLElement): boolean => !(node instanceof HTMLElement && node.dataset.exportSkip === 'true');

export async function elementPng(el: HTMLElement, caption: readonly string[], scale = EXPORT_SCALE): Promise<Blob> {
  const { toCanvas } = await import('html-to-image');
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const shot = await toCanvas(el, { pixelRatio: scale, filter, width: w, height: h });
  const capH = captionHeight(caption.length);
  const out = document.createElement('canvas');
  out.width = Math.round(w * scale);
  out.height = Math.round((h + capH) * scale);
  const ctx = out.getContext('2d');
  if (ctx === null) throw new Error('no 2D canvas available for the export');
  ctx.fillStyle = BACKGROUND;
  ctx.fillRect(0, 0, out.width, out.height);
  ctx.drawImage(shot, 0, 0, out.width, Math.round(h * scale));
  ctx.setTransform(scale, 0, 0, scale, 0, 0);
  drawCaption(new CanvasPainter(ctx), caption, [], h, w);
  return canvasToPng(out);
}

export async function elementSvg(el: HTMLElement, caption: readonly string[]): Promise<string> {
  const { toSvg } = await import('html-to-image');
  const w = el.offsetWidth;
  const h = el.offsetHeight;
  const inner = await toSvg(el, { filter, width: w, height: h });
  const p = new SvgPainter();
  drawCaption(p, caption, [], h, w);
  const doc = p.toString(w, h + captionHeight(caption.length), BACKGROUND);
  const image = `<image x="0" y="0" width="${w}" height="${h}" href="${inner.replace(/"/g, '&quot;')}"/>`;
  return doc.replace(/(<svg[^>]*>(?:<rect width="100%"[^>]*\/>)?)/, `$1${image}`);
}

/** the PNG and SVG buttons of one panel */
export function panelExportActions(title: string, element: () => HTMLElement | null, caption: () => readonly string[], run: () => Pick<RunIdentity, 'scenario' | 'seed'>): ExportAction[] {
  const el = (): HTMLElement => {
    const e = element();
    if (e === null) throw new Error('the panel is not on screen');
    return e;
  };
  const slug = title.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  return [
    { label: 'PNG', title: `Save the ${title} panel as PNG with a caption`, testId: `panel-${slug}-png`, run: async () => downloadBlob(await elementPng(el(), caption()), exportFileName(run(), title, 'png')) },
    { label: 'SVG', title: `Save the ${title} panel as SVG with a caption`, testId: `panel-${slug}-svg`, run: async () => downloadText(await elementSvg(el(), caption()), exportFileName(run(), title, 'svg'), 'image/svg+xml') },
  ];
}
