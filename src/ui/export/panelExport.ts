/**
 * PNG and SVG of a dashboard panel (or any element: Compare's table and
 * charts) with the caption strip. The SVG is real vector: the panel read
 * as boxes, text and the charts' own SVG (`domSvg.ts`), the caption drawn
 * as SVG text; the PNG is that same SVG rasterised at 2×, so both files
 * show the same picture.
 */
import { SvgPainter } from '../timeline/painter';
import { captionHeight, drawCaption, exportFileName, type RunIdentity } from './caption';
import { domToSvgItems } from './domSvg';
import { downloadBlob, downloadText } from './download';
import type { ExportAction } from './ExportButtons';
import { canvasToPng } from './download';
import { svgDocument, type SvgItem } from './svgDoc';
import { EXPORT_SCALE } from './timelineExport';

export const EXPORT_BACKGROUND = '#0b1120';

/** the element as vector items plus the caption strip under it */
export function elementSvgParts(el: HTMLElement, caption: readonly string[]): { items: SvgItem[]; width: number; height: number } {
  const { items, width, height } = domToSvgItems(el);
  if (caption.length === 0) return { items, width, height };
  const p = new SvgPainter();
  drawCaption(p, caption, [], height, width);
  return { items: [...items, { kind: 'raw', markup: p.body() }], width, height: height + captionHeight(caption.length) };
}

export function elementSvg(el: HTMLElement, caption: readonly string[], title?: string): string {
  const { items, width, height } = elementSvgParts(el, caption);
  return svgDocument(width, height, items, EXPORT_BACKGROUND, title ?? caption[0]);
}

/** an SVG document drawn into a canvas at `scale` (the PNG export) */
export async function svgToPng(svg: string, width: number, height: number, scale = EXPORT_SCALE): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.decoding = 'async';
    img.src = url;
    await img.decode();
    const out = document.createElement('canvas');
    out.width = Math.round(width * scale);
    out.height = Math.round(height * scale);
    const ctx = out.getContext('2d');
    if (ctx === null) throw new Error('no 2D canvas available for the export');
    ctx.drawImage(img, 0, 0, out.width, out.height);
    return await canvasToPng(out);
  } finally {
    URL.revokeObjectURL(url);
  }
}

export async function elementPng(el: HTMLElement, caption: readonly string[], scale = EXPORT_SCALE): Promise<Blob> {
  const { items, width, height } = elementSvgParts(el, caption);
  return svgToPng(svgDocument(width, height, items, EXPORT_BACKGROUND), width, height, scale);
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
    { label: 'PNG', title: `Save the ${title} panel as PNG (2×) with a caption`, testId: `panel-${slug}-png`, run: async () => downloadBlob(await elementPng(el(), caption()), exportFileName(run(), title, 'png')) },
    { label: 'SVG', title: `Save the ${title} panel as vector SVG with a caption`, testId: `panel-${slug}-svg`, run: async () => downloadText(elementSvg(el(), caption()), exportFileName(run(), title, 'svg'), 'image/svg+xml') },
  ];
}
