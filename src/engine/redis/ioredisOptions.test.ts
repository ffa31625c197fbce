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
});
