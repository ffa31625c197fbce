/** The served split's two lines, as the Throughput panel and Compare's side charts draw them. */
import { SPLIT_STYLE } from '../theme/statusColors';
import type { TimeSeries } from './chart/TimeChart';

/**
 * Healthy is drawn last, on top: when both sides serve nothing (a storm starves the healthy
 * segments too) the line that tells the story is not hidden under the affected one.
 */
export const SPLIT_SERIES: readonly TimeSeries[] = [
  { key: 'affected', ...SPLIT_STYLE.affected, kind: 'line' },
  { key: 'healthy', ...SPLIT_STYLE.healthy, kind: 'line' },
];
