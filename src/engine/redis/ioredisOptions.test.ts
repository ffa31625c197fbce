import { describe, expect, it } from 'vitest';
import { parseIoredisOptions } from './ioredisOptions';

describe('--ioredis-options', () => {
  it('takes the retry and refresh knobs a comparison may change', () => {
    expect(parseIoredisOptions('{"maxRedirections": 3, "retryDelayOnFailover": 250}')).toEqual({ maxRedirections: 3, retryDelayOnFailover: 250 });
    expect(parseIoredisOptions('{}')).toEqual({});
  });
  it('refuses bad input in one line naming the field and what is allowed', () => {
    expect(() => parseIoredisOptions('{"maxRedirections": 0}')).toThrow('--ioredis-options maxRedirections: maxRedirections must be ≥ 1');
    expect(() => parseIoredisOptions('{"scaleReads": "slave"}')).toThrow(/unknown option\(s\) scaleReads \(allowed: maxRedirections, retryDelayOnFailover, /);
    expect(() => parseIoredisOptions('{"retryDelayOnMoved": "x"}')).toThrow(/retryDelayOnMoved must be a number of ms/);
    expect(() => parseIoredisOptions('{nope')).toThrow(/^--ioredis-options is not valid JSON/);
  });
  it('refuses a key given twice and a value that is not one object (review of 2026-12-02)', () => {
    expect(() => parseIoredisOptions('{"maxRedirections":1,"maxRedirections":2}')).toThrow('--ioredis-options maxRedirections: given twice; give it once');
    expect(() => parseIoredisOptions('[]')).toThrow(/^--ioredis-options must be one JSON object of ioredis Cluster options \(allowed: maxRedirections, .*\); got a list$/);
    expect(() => parseIoredisOptions('null')).toThrow(/; got null$/);
    expect(() => parseIoredisOptions('3')).toThrow(/; got number$/);
  });
});
