import { describe, expect, it } from 'vitest';
import { encodeCommand, RespError, RespParser, RespProtocolError, type RespValue } from './resp';

function parseAll(chunks: readonly Buffer[]): RespValue[] {
  const p = new RespParser();
  const out: RespValue[] = [];
  for (const c of chunks) p.feed(c, (v) => out.push(v));
  return out;
}

/** every way to cut `bytes` in two */
function everySplit(bytes: Buffer): Buffer[][] {
  return Array.from({ length: bytes.length + 1 }, (_, i) => [bytes.subarray(0, i), bytes.subarray(i)]);
}

describe('encodeCommand', () => {
  it('writes an array of bulk strings, numbers as decimal, UTF-8 lengths in bytes', () => {
    expect(encodeCommand(['SET', 'k', 12]).toString()).toBe('*3\r\n$3\r\nSET\r\n$1\r\nk\r\n$2\r\n12\r\n');
    expect(encodeCommand(['GET', 'ä']).toString()).toBe('*2\r\n$3\r\nGET\r\n$2\r\nä\r\n');
    expect(encodeCommand([''])).toEqual(Buffer.from('*1\r\n$0\r\n\r\n'));
  });
  it('writes long arguments (scripts) byte for byte', () => {
    const long = 'x'.repeat(1000);
    const b = encodeCommand(['EVAL', long, 0]);
    expect(b.toString()).toBe(`*3\r\n$4\r\nEVAL\r\n$1000\r\n${long}\r\n$1\r\n0\r\n`);
    expect(parseAll([b])).toEqual([['EVAL', long, '0']]); // an array of bulk strings reads back as one
  });
});

describe('RespParser', () => {
  const wire = Buffer.from(
    '+OK\r\n-MOVED 3999 127.0.0.1:7002\r\n:42\r\n:-7\r\n$5\r\nhällo\r\n'.replace('hällo', 'hallo') +
      '$-1\r\n*-1\r\n*0\r\n*3\r\n$2\r\nOk\r\n$-1\r\n:3\r\n*2\r\n*1\r\n:1\r\n+x\r\n$0\r\n\r\n',
  );
  const expected: RespValue[] = [
    'OK',
    new RespError('MOVED 3999 127.0.0.1:7002'),
    42,
    -7,
    'hallo',
    null,
    null,
    [],
    ['Ok', null, 3],
    [[1], 'x'],
    '',
  ];

  it('reads every RESP2 type, nested arrays and null bulk / null array', () => {
    expect(parseAll([wire])).toEqual(expected);
  });

  it('gives the same replies whatever the chunking (every split point, and byte by byte)', () => {
    for (const parts of everySplit(wire)) expect(parseAll(parts)).toEqual(expected);
    const bytes = [...wire].map((b) => Buffer.from([b]));
    expect(parseAll(bytes)).toEqual(expected);
  });

  it('reads UTF-8 bulk strings split inside a multi-byte character', () => {
    const b = Buffer.from('$6\r\nhällö\r\n'.replace('$6', `$${Buffer.byteLength('hällö')}`));
    for (const parts of everySplit(b)) expect(parseAll(parts)).toEqual(['hällö']);
  });

  it('holds an incomplete reply until the rest arrives', () => {
    const p = new RespParser();
    const out: RespValue[] = [];
    p.feed(Buffer.from('*2\r\n:1\r\n'), (v) => out.push(v));
    expect(out).toEqual([]);
    expect(p.pending).toBeGreaterThan(0);
    p.feed(Buffer.from(':2\r\n'), (v) => out.push(v));
    expect(out).toEqual([[1, 2]]);
    expect(p.pending).toBe(0);
  });

  it('gives an error reply its code', () => {
    expect(new RespError('ASK 12 127.0.0.1:7000').code).toBe('ASK');
    expect(new RespError('CLUSTERDOWN The cluster is down').code).toBe('CLUSTERDOWN');
    expect(new RespError('LOADING').code).toBe('LOADING');
  });

  it('refuses a stream that is not RESP', () => {
    expect(() => parseAll([Buffer.from('hello\r\n')])).toThrow(RespProtocolError);
    expect(() => parseAll([Buffer.from(':12x\r\n')])).toThrow(/not an integer/);
    expect(() => parseAll([Buffer.from('$3\r\nabcd\r\n')])).toThrow(/CRLF/);
    expect(() => parseAll([Buffer.from('$-5\r\n')])).toThrow(/bulk length/);
    expect(() => parseAll([Buffer.from('+OK\rX')])).toThrow(/CR without LF/);
  });
});
