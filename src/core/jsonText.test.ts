import { describe, expect, it } from 'vitest';
import { escapeControls, findDuplicateKey } from './jsonText';

describe('findDuplicateKey', () => {
  it('follows escaped quotes and backslashes in keys and values', () => {
    expect(findDuplicateKey(String.raw`{"a":"x\"y\\","b":{"c":1,"c":2}}`)).toEqual({ path: 'b.c', key: 'c', line: 1 });
    expect(findDuplicateKey(String.raw`{"a\\":1,"a\\":2}`)).toEqual({ path: 'a\\', key: 'a\\', line: 1 });
    expect(findDuplicateKey(String.raw`{"q":"\\\"","q":1}`)).toEqual({ path: 'q', key: 'q', line: 1 });
    expect(findDuplicateKey(String.raw`{"a":"\"a\":1","b":1}`)).toBeNull();
    expect(findDuplicateKey('{"list":[{"k":1},{"k":2}],\n"x":{"y":1,\n"y":2}}')).toEqual({ path: 'x.y', key: 'y', line: 3 });
  });

  it('reads a long value in one slice (a 60 MB description took seconds and gigabytes a character at a time)', () => {
    const text = JSON.stringify({ description: 'x'.repeat(8 * 2 ** 20), description2: 1, description3: 2 });
    expect(findDuplicateKey(text)).toBeNull();
    expect(findDuplicateKey(`${text.slice(0, -1)},"description":0}`)).toEqual({ path: 'description', key: 'description', line: 1 });
  });
});

describe('escapeControls', () => {
  it('shows line breaks, escape sequences and direction marks escaped', () => {
    expect(escapeControls('a\nb\u001b[2J\u202e\tc')).toBe('a\\nb\\u001b[2J\\u202e\\tc');
    expect(escapeControls('plain — text ✓')).toBe('plain — text ✓');
  });
});
