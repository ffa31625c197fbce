/**
 * Reads a panel as the browser laid it out and turns it into vector items
 * (`svgDoc.ts`): each box's background and borders as rects, each line of
 * text as an SVG <text> at its baseline, each chart's own <svg> (Recharts
 * draws SVG) cloned with only the computed styles that differ from what it
 * inherits written as presentation attributes — so the file needs no style
 * sheet. Canvases (the timeline) are not read here: the timeline exports
 * through its own painter.
 */
import type { SvgItem } from './svgDoc';

type Box = { x: number; y: number; w: number; h: number };

/** a CSS radius as SVG's rx: never more than half the box (999px pills stay pills, not ellipses) */
const radius = (cs: CSSStyleDeclaration, b: Box): number => Math.min(parseFloat(cs.borderTopLeftRadius) || 0, b.w / 2, b.h / 2);

const transparent = (c: string): boolean => c === '' || c === 'transparent' || /rgba\([^)]*,\s*0\)$/.test(c);

/** the SVG properties a chart's look depends on, inlined when they differ from the parent's */
const SVG_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-linecap',
  'stroke-linejoin',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'text-anchor',
  'dominant-baseline',
  'paint-order',
  'visibility',
] as const;

/** the SVG's initial values: a property equal to them at the root need not be written */
const SVG_INITIAL: Readonly<Record<string, string>> = {
  fill: 'rgb(0, 0, 0)',
  'fill-opacity': '1',
  stroke: 'none',
  'stroke-width': '1px',
  'stroke-opacity': '1',
  'stroke-dasharray': 'none',
  'stroke-linecap': 'butt',
  'stroke-linejoin': 'miter',
  opacity: '1',
  'text-anchor': 'start',
  'dominant-baseline': 'auto',
  'paint-order': 'normal',
  visibility: 'visible',
};

/** a chart's <svg> with its styles as attributes (the original is untouched) */
export function inlineSvg(svg: SVGSVGElement): string {
  const clone = svg.cloneNode(true) as SVGSVGElement;
  const walk = (orig: Element, copy: Element, parent: CSSStyleDeclaration | null): void => {
    const cs = getComputedStyle(orig);
    if (cs.display === 'none') {
      copy.remove();
      return;
    }
    for (const p of SVG_PROPS) {
      const v = cs.getPropertyValue(p);
      const inherited = parent ? parent.getPropertyValue(p) : SVG_INITIAL[p];
      // opacity does not inherit: written whenever it is not 1
      if (p === 'opacity' ? v !== '1' : v !== inherited && v !== '') copy.setAttribute(p, v);
    }
    copy.removeAttribute('style');
    const oc = orig.children;
    const cc = [...copy.children];
    for (let i = 0; i < oc.length; i++) {
      const o = oc[i];
      const c = cc[i];
      if (o && c) walk(o, c, cs);
    }
  };
  walk(svg, clone, null);
  clone.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const vb = svg.getAttribute('viewBox');
  const r = svg.getBoundingClientRect();
  if (vb === null) clone.setAttribute('viewBox', `0 0 ${r.width} ${r.height}`);
  return new XMLSerializer().serializeToString(clone);
}

const applyTransform = (s: string, tt: string): string => (tt === 'uppercase' ? s.toUpperCase() : tt === 'lowercase' ? s.toLowerCase() : s);

/** text of one text node, one item per line box (words regrouped by their line) */
function textItems(node: Text, origin: Box, out: SvgItem[]): void {
  const raw = node.data;
  if (raw.trim() === '') return;
  const el = node.parentElement;
  if (el === null) return;
  const cs = getComputedStyle(el);
  const size = parseFloat(cs.fontSize) || 12;
  const base = { fill: cs.color, size, family: cs.fontFamily, weight: cs.fontWeight, italic: cs.fontStyle === 'italic' };
  const range = document.createRange();
  range.selectNodeContents(node);
  const rects = [...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0);
  if (rects.length === 0) return;
  const push = (text: string, r: DOMRect): void => {
    // collapsed like the layout did: one space, kept at the start only after an inline sibling (" · 2×")
    const collapsed = text.replace(/\s+/g, ' ').trimEnd();
    const t = applyTransform(cs.whiteSpace.startsWith('pre') ? text : node.previousSibling ? collapsed : collapsed.trimStart(), cs.textTransform);
    // baseline: the content box's middle plus a third of the em (close for sans faces)
    if (t.trim() !== '') out.push({ kind: 'text', x: r.left - origin.x, y: r.top - origin.y + r.height / 2 + size * 0.35, text: t, ...base });
  };
  if (rects.length === 1) return push(raw, rects[0] as DOMRect);
  // wrapped: measure word by word, one <text> per line
  const words = raw.split(/(\s+)/);
  let offset = 0;
  let line = '';
  let lineRect: DOMRect | null = null;
  for (const w of words) {
    const start = offset;
    offset += w.length;
    if (w.trim() === '') {
      line += w;
      continue;
    }
    range.setStart(node, start);
    range.setEnd(node, offset);
    const r = range.getBoundingClientRect();
    if (lineRect !== null && Math.abs(r.top - lineRect.top) > 1) {
      push(line, lineRect);
      line = '';
      lineRect = null;
    }
    if (lineRect === null) lineRect = r;
    line += w;
  }
  if (lineRect !== null) push(line, lineRect);
}

function boxItems(el: Element, cs: CSSStyleDeclaration, b: Box, out: SvgItem[]): void {
  if (!transparent(cs.backgroundColor)) out.push({ kind: 'rect', ...b, fill: cs.backgroundColor, rx: radius(cs, b) });
  const sides = [
    { w: parseFloat(cs.borderTopWidth), c: cs.borderTopColor, s: cs.borderTopStyle },
    { w: parseFloat(cs.borderRightWidth), c: cs.borderRightColor, s: cs.borderRightStyle },
    { w: parseFloat(cs.borderBottomWidth), c: cs.borderBottomColor, s: cs.borderBottomStyle },
    { w: parseFloat(cs.borderLeftWidth), c: cs.borderLeftColor, s: cs.borderLeftStyle },
  ];
  const shown = sides.map((x) => x.w > 0 && x.s !== 'none' && x.s !== 'hidden' && !transparent(x.c));
  const [t, r, bo, l] = sides as [(typeof sides)[0], (typeof sides)[0], (typeof sides)[0], (typeof sides)[0]];
  const uniform = shown.every(Boolean) && sides.every((x) => x.w === t.w && x.c === t.c);
  if (uniform) {
    out.push({ kind: 'rect', x: b.x + t.w / 2, y: b.y + t.w / 2, w: b.w - t.w, h: b.h - t.w, stroke: t.c, strokeWidth: t.w, rx: radius(cs, b) });
    return;
  }
  if (shown[0]) out.push({ kind: 'rect', x: b.x, y: b.y, w: b.w, h: t.w, fill: t.c });
  if (shown[1]) out.push({ kind: 'rect', x: b.x + b.w - r.w, y: b.y, w: r.w, h: b.h, fill: r.c });
  if (shown[2]) out.push({ kind: 'rect', x: b.x, y: b.y + b.h - bo.w, w: b.w, h: bo.w, fill: bo.c });
  if (shown[3]) out.push({ kind: 'rect', x: b.x, y: b.y, w: l.w, h: b.h, fill: l.c });
  void el;
}

/** skip: the export buttons themselves, and form controls (they are the page's, not the picture's) */
const skipped = (el: Element): boolean => (el instanceof HTMLElement && el.dataset.exportSkip === 'true') || el.tagName === 'BUTTON' || el.tagName === 'INPUT' || el.tagName === 'SELECT';

function walk(el: Element, origin: Box, out: SvgItem[]): void {
  if (skipped(el)) return;
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility === 'hidden' || cs.opacity === '0') return;
  const r = el.getBoundingClientRect();
  const b: Box = { x: r.left - origin.x, y: r.top - origin.y, w: r.width, h: r.height };
  if (el instanceof SVGSVGElement) {
    if (r.width > 0 && r.height > 0) out.push({ kind: 'svg', ...b, markup: inlineSvg(el) });
    return;
  }
  if (el instanceof HTMLCanvasElement) return;
  const own: SvgItem[] = [];
  boxItems(el, cs, b, own);
  for (const child of el.childNodes) {
    if (child.nodeType === Node.TEXT_NODE) textItems(child as Text, origin, own);
    else if (child.nodeType === Node.ELEMENT_NODE) walk(child as Element, origin, own);
  }
  const clips = cs.overflowX !== 'visible' || cs.overflowY !== 'visible';
  const opacity = parseFloat(cs.opacity);
  if (clips || opacity < 1) out.push({ kind: 'group', ...(clips ? { clip: b } : {}), ...(opacity < 1 ? { opacity } : {}), items: own });
  else out.push(...own);
}

/** the element's picture as vector items, in css px relative to its top-left corner */
export function domToSvgItems(root: HTMLElement): { items: SvgItem[]; width: number; height: number } {
  const r = root.getBoundingClientRect();
  const origin: Box = { x: r.left, y: r.top, w: r.width, h: r.height };
  const items: SvgItem[] = [];
  walk(root, origin, items);
  return { items, width: Math.ceil(r.width), height: Math.ceil(r.height) };
}
