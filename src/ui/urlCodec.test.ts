import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../core/sim/presets';
import { decodeJsonParam, encodeJsonParam, fromBase64Url, lzwCompress, lzwDecompress, toBase64Url } from './urlCodec';

describe('urlCodec', () => {
  it('base64url round-trips any bytes and uses only URL-safe characters', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (bytes) => {
        const s = toBase64Url(bytes);
        expect(s).toMatch(/^[A-Za-z0-9_-]*$/);
        expect(fromBase64Url(s)).toEqual(bytes);
      }),
    );
  });

  it('LZW round-trips any bytes, including long repetitive input (code widths up to 16 bits)', () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
      expect(lzwDecompress(lzwCompress(bytes), 4000)).toEqual(bytes);
    }));
    // more than 65,536 codes: the dictionary fills and freezes
    const json = JSON.stringify(Array.from({ length: 120_000 }, (_, i) => i));
    const big = new TextEncoder().encode(json);
    const packed = lzwCompress(big);
    expect(packed.length).toBeLessThan(big.length / 2);
    expect(new TextDecoder().decode(lzwDecompress(packed, big.length)) === json).toBe(true);
  });

  it('JSON params round-trip; the compressed form is chosen when shorter', () => {
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      expect(decodeJsonParam(encodeJsonParam(v), 1 << 20)).toEqual(JSON.parse(JSON.stringify(v)));
    }));
    const scenario = PRESETS.find((p) => p.id === 'full-churn')?.input;
    const s = encodeJsonParam(scenario);
    expect(s[0]).toBe('z');
    expect(s.length).toBeLessThan(JSON.stringify(scenario).length);
    expect(decodeJsonParam(s, 1 << 16)).toEqual(scenario);
    expect(encodeJsonParam(1)).toBe('jMQ');
  });

  it('hostile input fails with a message, never hangs or overflows', () => {
    expect(() => decodeJsonParam('xabc', 100)).toThrow(/must start with "j"/);
    expect(() => decodeJsonParam('j@@@', 100)).toThrow(/not valid base64url/);
    expect(() => decodeJsonParam('jA', 100)).toThrow(/wrong length/);
    expect(() => decodeJsonParam(`j${toBase64Url(Uint8Array.of(0xff, 0xfe))}`, 100)).toThrow(/not valid UTF-8/);
    expect(() => decodeJsonParam(`j${toBase64Url(new TextEncoder().encode('{"a":'))}`, 100)).toThrow(/not valid JSON/);
    // a code the dictionary cannot have yet
    expect(() => decodeJsonParam(`z${toBase64Url(Uint8Array.of(0x41, 0xfe, 0xff, 0x01))}`, 100)).toThrow(/corrupt/);
    // a small compressed bomb is stopped at the size bound
    const bomb = lzwCompress(new Uint8Array(200_000).fill(32));
    expect(bomb.length).toBeLessThan(2000);
    expect(() => lzwDecompress(bomb, 65_536)).toThrow(/too large when unpacked/);
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        try {
          decodeJsonParam(`z${s}`, 1000);
        } catch (e) {
          expect(e).toBeInstanceOf(Error);
        }
      }),
    );
  });
});
