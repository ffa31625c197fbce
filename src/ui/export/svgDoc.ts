/**
 * The vector export's document model, pure: boxes, lines, text and inlined
 * chart SVG collected from the page (`domSvg.ts`) become one standalone SVG
 * file — shapes and text only, no `foreignObject`, no scripts, no external
 * references — that a browser or a design tool (Inkscape) opens with its
 * paths and text intact.
 */

export interface SvgRect {
  readonly kind: 'rect';
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly fill?: string;
  readonly stroke?: string;
  readonly strokeWidth?: number;
  readonly rx?: number;
}

export interface SvgText {
  readonly kind: 'text';
  /** x of the anchor, y of the baseline */
  readonly x: number;
  readonly y: number;
  readonly text: string;
  readonly fill: string;
  readonly size: number;
  readonly family: string;
  readonly weight: string;
  readonly italic?: boolean;
}

/** a chart's own <svg> element, serialized, placed at (x, y) */
export interface SvgEmbed {
  readonly kind: 'svg';
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
  readonly markup: string;
}

/** children clipped to a box and / or faded */
export interface SvgGroup {
  readonly kind: 'group';
  readonly clip?: { readonly x: number; readonly y: number; readonly w: number; readonly h: number };
  readonly opacity?: number;
  readonly items: readonly SvgItem[];
}

/** already-built SVG elements (e.g. a caption drawn with the SvgPainter) */
export interface SvgRaw {
  readonly kind: 'raw';
  readonly markup: string;
}

export type SvgItem = SvgRect | SvgText | SvgEmbed | SvgGroup | SvgRaw;

export const escapeXml = (s: string): string =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    // characters XML 1.0 cannot carry at all
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '');

/** a coordinate: two decimals, no "-0", never NaN */
export const num = (x: number): string => {
  if (!Number.isFinite(x)) return '0';
  const r = Math.round(x * 100) / 100;
  return String(r === 0 ? 0 : r);
};

/**
 * Makes a chart's serialized <svg> safe to embed: no foreignObject (HTML
 * inside SVG: design tools drop it), no scripts or event handlers, no
 * external hrefs, no class names (the page's style sheet is not there), no
 * nested XML declaration.
 */
export function cleanSvgMarkup(markup: string): string {
  return markup
    .replace(/<\?xml[^>]*\?>/g, '')
    .replace(/<foreignObject\b[\s\S]*?<\/foreignObject>/gi, '')
    .replace(/<foreignObject\b[^>]*\/>/gi, '')
    .replace(/<script\b[\s\S]*?<\/script>/gi, '')
    .replace(/\s(on[a-z]+|class|tabindex|role|focusable|aria-[a-z-]+|data-[a-z0-9-]+)="[^"]*"/gi, '')
    .replace(/\s(?:xlink:)?href="(?!#)[^"]*"/gi, '');
}

function item(it: SvgItem, ids: { clip: number }): string {
  switch (it.kind) {
    case 'rect': {
      const fill = it.fill ? ` fill="${escapeXml(it.fill)}"` : ' fill="none"';
      const stroke = it.stroke ? ` stroke="${escapeXml(it.stroke)}" stroke-width="${num(it.strokeWidth ?? 1)}"` : '';
      const rx = it.rx ? ` rx="${num(it.rx)}"` : '';
      return `<rect x="${num(it.x)}" y="${num(it.y)}" width="${num(Math.max(0, it.w))}" height="${num(Math.max(0, it.h))}"${rx}${fill}${stroke}/>`;
    }
    case 'text': {
      const style = `font-family="${escapeXml(it.family)}" font-size="${num(it.size)}" font-weight="${escapeXml(it.weight)}"${it.italic ? ' font-style="italic"' : ''}`;
      return `<text x="${num(it.x)}" y="${num(it.y)}" fill="${escapeXml(it.fill)}" ${style} xml:space="preserve">${escapeXml(it.text)}</text>`;
    }
    case 'svg': {
      // the chart's root <svg> keeps its own viewBox; we only place and size it
      const inner = cleanSvgMarkup(it.markup).replace(/^<svg\b([^>]*)>/, (_m, attrs: string) => {
        const kept = attrs.replace(/\s(x|y|width|height|style|xmlns)="[^"]*"/g, '');
        return `<svg x="${num(it.x)}" y="${num(it.y)}" width="${num(it.w)}" height="${num(it.h)}"${kept}>`;
      });
      return inner;
    }
    case 'group': {
      const parts = it.items.map((x) => item(x, ids)).join('');
      if (parts === '') return '';
      let open = '<g';
      let defs = '';
      if (it.clip) {
        const id = `clip${ids.clip++}`;
        defs = `<clipPath id="${id}"><rect x="${num(it.clip.x)}" y="${num(it.clip.y)}" width="${num(it.clip.w)}" height="${num(it.clip.h)}"/></clipPath>`;
        open += ` clip-path="url(#${id})"`;
      }
      if (it.opacity !== undefined && it.opacity < 1) open += ` opacity="${num(it.opacity)}"`;
      return `${defs}${open}>${parts}</g>`;
    }
    case 'raw':
      return it.markup;
  }
}

/** the standalone document: `width` × `height` css px, an optional background, the items in paint order */
export function svgDocument(width: number, height: number, items: readonly SvgItem[], background?: string, title?: string): string {
  const ids = { clip: 0 };
  const bg = background ? `<rect width="100%" height="100%" fill="${escapeXml(background)}"/>` : '';
  const t = title ? `<title>${escapeXml(title)}</title>` : '';
  return `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${num(width)}" height="${num(height)}" viewBox="0 0 ${num(width)} ${num(height)}">${t}${bg}${items.map((x) => item(x, ids)).join('')}</svg>`;
}
