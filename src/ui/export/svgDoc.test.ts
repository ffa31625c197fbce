import { describe, expect, it } from 'vitest';
import { cleanSvgMarkup, escapeXml, num, svgDocument } from './svgDoc';

describe('the vector SVG serializer', () => {
  it('writes boxes, borders and text as SVG shapes and <text>, in paint order', () => {
    const svg = svgDocument(
      300,
      120,
      [
        { kind: 'rect', x: 0, y: 0, w: 300, h: 120, fill: 'rgb(17, 26, 46)', rx: 10 },
        { kind: 'rect', x: 0.5, y: 0.5, w: 299, h: 119, stroke: 'rgb(35, 48, 77)', strokeWidth: 1 },
        { kind: 'text', x: 12, y: 24.333, text: 'failed & rejected <ops>', fill: 'rgb(226, 232, 240)', size: 13, family: 'Inter, "Segoe UI", sans-serif', weight: '600' },
      ],
      '#0b1120',
      'Throughput panel',
    );
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="300" height="120" viewBox="0 0 300 120"><title>Throughput panel</title><rect width="100%" height="100%" fill="#0b1120"/>')).toBe(true);
    expect(svg).toContain('<rect x="0" y="0" width="300" height="120" rx="10" fill="rgb(17, 26, 46)"/>');
    expect(svg).toContain('<rect x="0.5" y="0.5" width="299" height="119" fill="none" stroke="rgb(35, 48, 77)" stroke-width="1"/>');
    expect(svg).toContain('<text x="12" y="24.33" fill="rgb(226, 232, 240)" font-family="Inter, &quot;Segoe UI&quot;, sans-serif" font-size="13" font-weight="600" xml:space="preserve">failed &amp; rejected &lt;ops&gt;</text>');
    expect(svg.endsWith('</svg>')).toBe(true);
  });

  it("places a chart's own SVG at its box, keeping its viewBox and paths, dropping what a file cannot use", () => {
    const chart =
      '<svg xmlns="http://www.w3.org/2000/svg" class="recharts-surface" width="400" height="200" viewBox="0 0 400 200" style="width: 100%"><defs><clipPath id="recharts1-clip"><rect x="5" y="5" width="390" height="190"/></clipPath></defs><path d="M5,100L395,20" stroke="#4ade80" fill="none" class="recharts-line"/><foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">tip</div></foreignObject><text x="5" y="195" onclick="x()">0 s</text><image href="https://example.com/x.png"/></svg>';
    const svg = svgDocument(420, 220, [{ kind: 'svg', x: 10, y: 12.5, w: 400, h: 200, markup: chart }]);
    expect(svg).toContain('<svg x="10" y="12.5" width="400" height="200" viewBox="0 0 400 200">');
    expect(svg).toContain('<path d="M5,100L395,20" stroke="#4ade80" fill="none"/>');
    expect(svg).toContain('<text x="5" y="195">0 s</text>');
    expect(svg).toContain('<clipPath id="recharts1-clip">');
    expect(svg).not.toMatch(/foreignObject|onclick|class=|example\.com|style=/);
  });

  it('clips and fades groups with unique clip ids, and skips empty groups', () => {
    const box = { x: 0, y: 0, w: 10, h: 10 };
    const svg = svgDocument(10, 10, [
      { kind: 'group', clip: box, items: [{ kind: 'rect', ...box, fill: 'red' }] },
      { kind: 'group', clip: box, opacity: 0.5, items: [{ kind: 'rect', ...box, fill: 'blue' }] },
      { kind: 'group', clip: box, items: [] },
    ]);
    expect(svg.match(/<clipPath id="clip0">/g)).toHaveLength(1);
    expect(svg).toContain('<g clip-path="url(#clip1)" opacity="0.5">');
    expect(svg).not.toContain('clip2');
  });

  it('never writes NaN, -0 or control characters', () => {
    expect([num(NaN), num(-0.001), num(Infinity), num(1.005), num(-3.456)]).toEqual(['0', '0', '0', '1', '-3.46']);
    expect(escapeXml('a\u0001b"c')).toBe('ab&quot;c');
    expect(cleanSvgMarkup('<?xml version="1.0"?><svg data-x="1" aria-label="y"><use href="#a"/></svg>')).toBe('<svg><use href="#a"/></svg>');
  });
});
