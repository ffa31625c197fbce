import { describe, expect, it } from 'vitest';
import { SvgPainter } from './painter';

describe('the SVG painter', () => {
  it('merges runs of same-coloured rects into one path, keeping paint order', () => {
    const p = new SvgPainter();
    p.rect(0, 0, 10, 5, 'red');
    p.rect(20, 0, 10, 5, 'red');
    p.rect(5, 0, 10, 5, 'blue');
    p.rect(40, 0, 0, 5, 'red'); // empty: nothing drawn
    p.rect(40, 0, 10, 5, 'red', 0.5);
    p.text(1, 10, 'a < b', { color: '#fff', size: 10 });
    const body = p.body();
    expect(body).toBe(
      '<path d="M0 0h10v5h-10zM20 0h10v5h-10z" fill="red"/><path d="M5 0h10v5h-10z" fill="blue"/><path d="M40 0h10v5h-10z" fill="red" fill-opacity="0.5"/>' +
        '<text x="1" y="13.5" fill="#fff" text-anchor="start" font-family="Inter, system-ui, -apple-system, \'Segoe UI\', sans-serif" font-size="10" font-weight="400">a &lt; b</text>',
    );
    expect(p.elements).toBe(6);
  });

  it('closes a run before a clip ends, so clipped bars stay clipped', () => {
    const p = new SvgPainter();
    p.clip(0, 0, 5, 5, () => p.rect(0, 0, 10, 10, 'red'));
    p.rect(0, 0, 1, 1, 'red');
    expect(p.toString(10, 10)).toBe(
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10" viewBox="0 0 10 10"><clipPath id="c0"><rect x="0" y="0" width="5" height="5"/></clipPath><g clip-path="url(#c0)"><path d="M0 0h10v10h-10z" fill="red"/></g><path d="M0 0h1v1h-1z" fill="red"/></svg>',
    );
  });
});
