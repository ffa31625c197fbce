import { describe, expect, it } from 'vitest';
import { formatNumber } from './format';

describe('chart formatting', () => {
  it('formats axis and tooltip numbers compactly', () => {
    expect([0, 0.5, 1.234, 12.34, 123.4, 1234, 12_345, 1_234_567].map(formatNumber)).toEqual(['0', '0.5', '1.23', '12.3', '123', '1.2k', '12k', '1.2M']);
    expect(formatNumber(null)).toBe('—');
  });
});
