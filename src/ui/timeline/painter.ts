/**
 * One drawing vocabulary for the timeline, two targets: a canvas (screen and
 * PNG export) and an SVG document (vector export). The scene is drawn once
 * through this interface, so the export is exactly what is on screen.
 */

export interface TextStyle {
  readonly color: string;
  /** px */
  readonly size: number;
  readonly weight?: 400 | 500 | 600 | 700;
  readonly align?: 'left' | 'center' | 'right';
  readonly baseline?: 'top' | 'middle' | 'bottom';
  readonly mono?: boolean;
  /** a dark outline behind the glyphs, for text over bars */
  readonly halo?: string;
}

export interface Painter {
  rect(x: number, y: number, w: number, h: number, fill: string, alpha?: number): void;
  strokeRect(x: number, y: number, w: number, h: number, stroke: string, width?: number, dash?: readonly number[]): void;
  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width?: number, dash?: readonly number[], alpha?: number): void;
  polygon(points: readonly (readonly [number, number])[], fill: string, alpha?: number): void;
  text(x: number, y: number, s: string, style: TextStyle): void;
  /** draws `body` clipped to the rectangle */
  clip(x: number, y: number, w: number, h: number, body: () => void): void;
}

const SANS = "Inter, system-ui, -apple-system, 'Segoe UI', sans-serif";
const MONO = "'JetBrains Mono', ui-monospace, Menlo, monospace";

export const fontOf = (s: TextStyle): string => `${s.weight ?? 400} ${s.size}px ${s.mono ? MONO : SANS}`;

/** rough text width for layout decisions that must match on both targets */
export function approxTextWidth(s: string, size: number, mono = false): number {
  return s.length * size * (mono ? 0.62 : 0.56);
}

/** cuts `s` to fit `width` px, ending with "…" */
export function fitText(s: string, width: number, size: number, mono = false): string {
  if (approxTextWidth(s, size, mono) <= width) return s;
  const chars = Math.floor(width / (size * (mono ? 0.62 : 0.56))) - 1;
  return chars <= 0 ? '' : `${s.slice(0, chars)}…`;
}

export class CanvasPainter implements Painter {
  /** the font last set (setting a canvas font parses it: costly per label) */
  private font = '';

  constructor(private readonly ctx: CanvasRenderingContext2D) {}

  rect(x: number, y: number, w: number, h: number, fill: string, alpha = 1): void {
    const c = this.ctx;
    c.globalAlpha = alpha;
    c.fillStyle = fill;
    c.fillRect(x, y, w, h);
    c.globalAlpha = 1;
  }

  strokeRect(x: number, y: number, w: number, h: number, stroke: string, width = 1, dash: readonly number[] = []): void {
    const c = this.ctx;
    c.setLineDash(dash as number[]);
    c.strokeStyle = stroke;
    c.lineWidth = width;
    c.strokeRect(x + width / 2, y + width / 2, Math.max(0, w - width), Math.max(0, h - width));
    c.setLineDash([]);
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1, dash: readonly number[] = [], alpha = 1): void {
    const c = this.ctx;
    c.globalAlpha = alpha;
    c.setLineDash(dash as number[]);
    c.strokeStyle = stroke;
    c.lineWidth = width;
    c.beginPath();
    c.moveTo(x1, y1);
    c.lineTo(x2, y2);
    c.stroke();
    c.setLineDash([]);
    c.globalAlpha = 1;
  }

  polygon(points: readonly (readonly [number, number])[], fill: string, alpha = 1): void {
    const c = this.ctx;
    const [first, ...rest] = points;
    if (first === undefined) return;
    c.globalAlpha = alpha;
    c.fillStyle = fill;
    c.beginPath();
    c.moveTo(first[0], first[1]);
    for (const [x, y] of rest) c.lineTo(x, y);
    c.closePath();
    c.fill();
    c.globalAlpha = 1;
  }

  text(x: number, y: number, s: string, style: TextStyle): void {
    const c = this.ctx;
    const font = fontOf(style);
    if (font !== this.font) {
      c.font = font;
      this.font = font;
    }
    c.textAlign = style.align ?? 'left';
    c.textBaseline = style.baseline === 'top' ? 'top' : style.baseline === 'bottom' ? 'alphabetic' : 'middle';
    if (style.halo) {
      c.strokeStyle = style.halo;
      c.lineWidth = 3;
      c.lineJoin = 'round';
      c.strokeText(s, x, y);
    }
    c.fillStyle = style.color;
    c.fillText(s, x, y);
  }

  clip(x: number, y: number, w: number, h: number, body: () => void): void {
    const c = this.ctx;
    c.save();
    c.beginPath();
    c.rect(x, y, w, h);
    c.clip();
    body();
    c.restore();
    this.font = ''; // restore() brought back the font of before the clip
  }
}

const esc = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const n = (x: number): string => String(Math.round(x * 100) / 100);

/**
 * collects SVG elements; `toString(w, h)` gives the document. Filled rects
 * drawn one after another in the same colour become one <path> (the
 * timeline's thousands of bars stay a small file), so paint order is kept.
 */
export class SvgPainter implements Painter {
  private readonly parts: string[] = [];
  private clips = 0;
  private drawn = 0;
  /** the run of same-coloured rects being merged into one path */
  private run: { key: string; fill: string; alpha: number; d: string[] } | null = null;

  private flush(): void {
    const r = this.run;
    if (r === null) return;
    this.run = null;
    this.parts.push(`<path d="${r.d.join('')}" fill="${esc(r.fill)}"${r.alpha < 1 ? ` fill-opacity="${n(r.alpha)}"` : ''}/>`);
  }

  private push(part: string): void {
    this.flush();
    this.parts.push(part);
  }

  rect(x: number, y: number, w: number, h: number, fill: string, alpha = 1): void {
    this.drawn++;
    const ww = Math.max(0, w);
    const hh = Math.max(0, h);
    if (ww === 0 || hh === 0) return;
    const key = `${fill}|${alpha}`;
    if (this.run?.key !== key) {
      this.flush();
      this.run = { key, fill, alpha, d: [] };
    }
    this.run.d.push(`M${n(x)} ${n(y)}h${n(ww)}v${n(hh)}h${n(-ww)}z`);
  }

  strokeRect(x: number, y: number, w: number, h: number, stroke: string, width = 1, dash: readonly number[] = []): void {
    this.push(
      `<rect x="${n(x + width / 2)}" y="${n(y + width / 2)}" width="${n(Math.max(0, w - width))}" height="${n(Math.max(0, h - width))}" fill="none" stroke="${esc(stroke)}" stroke-width="${n(width)}"${dash.length ? ` stroke-dasharray="${dash.join(' ')}"` : ''}/>`,
    );
  }

  line(x1: number, y1: number, x2: number, y2: number, stroke: string, width = 1, dash: readonly number[] = [], alpha = 1): void {
    this.push(
      `<line x1="${n(x1)}" y1="${n(y1)}" x2="${n(x2)}" y2="${n(y2)}" stroke="${esc(stroke)}" stroke-width="${n(width)}"${dash.length ? ` stroke-dasharray="${dash.join(' ')}"` : ''}${alpha < 1 ? ` stroke-opacity="${n(alpha)}"` : ''}/>`,
    );
  }

  polygon(points: readonly (readonly [number, number])[], fill: string, alpha = 1): void {
    this.push(`<polygon points="${points.map(([x, y]) => `${n(x)},${n(y)}`).join(' ')}" fill="${esc(fill)}"${alpha < 1 ? ` fill-opacity="${n(alpha)}"` : ''}/>`);
  }

  text(x: number, y: number, s: string, style: TextStyle): void {
    const anchor = style.align === 'center' ? 'middle' : style.align === 'right' ? 'end' : 'start';
    // the baseline as a y offset, not dominant-baseline (design tools honour that unevenly)
    const dy = style.baseline === 'top' ? style.size * 0.8 : style.baseline === 'bottom' ? 0 : style.size * 0.35;
    const font = `font-family="${esc(style.mono ? MONO : SANS)}" font-size="${style.size}" font-weight="${style.weight ?? 400}"`;
    const halo = style.halo ? ` stroke="${esc(style.halo)}" stroke-width="3" paint-order="stroke" stroke-linejoin="round"` : '';
    this.push(`<text x="${n(x)}" y="${n(y + dy)}" fill="${esc(style.color)}" text-anchor="${anchor}" ${font}${halo}>${esc(s)}</text>`);
  }

  clip(x: number, y: number, w: number, h: number, body: () => void): void {
    const id = `c${this.clips++}`;
    this.push(`<clipPath id="${id}"><rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}"/></clipPath><g clip-path="url(#${id})">`);
    body();
    this.push('</g>');
  }

  /** shapes and texts drawn so far (for tests) */
  get elements(): number {
    return this.drawn + this.parts.filter((p) => !p.startsWith('<path')).length;
  }

  /** the elements drawn so far, without the document around them (to place into another SVG) */
  body(): string {
    this.flush();
    return this.parts.join('');
  }

  toString(width: number, height: number, background?: string): string {
    this.flush();
    const bg = background ? `<rect width="100%" height="100%" fill="${esc(background)}"/>` : '';
    return `<svg xmlns="http://www.w3.org/2000/svg" width="${n(width)}" height="${n(height)}" viewBox="0 0 ${n(width)} ${n(height)}">${bg}${this.parts.join('')}</svg>`;
  }
}
