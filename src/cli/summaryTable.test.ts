import { describe, expect, it } from 'vitest';
import { runScenario, servedPerSegment } from '../core/sim/runScenario';
import { loadScenario } from '../core/sim/scenario';
import { shortenedPreset } from '../core/sim/testkit/presetInputs';
import { formatSummary, sparkline } from './summaryTable';

describe('the CLI table', () => {
  it('draws spark lines on a given scale, blank where a series has no value', () => {
    expect(sparkline([0, 4, 8])).toBe('▁▄█');
    expect(sparkline([0, 4, 8], 16)).toBe('▁▂▄');
    expect(sparkline([null, 8, null])).toBe(' █ ');
    const t = { healthy: [640, 420, 300], affected: [0, 110, 0], segments: { healthy: [64, 42, 0], affected: [0, 22, 0] } };
    expect(servedPerSegment({ bucketMs: 1000, series: [], failed: [], ...t })).toEqual({ healthy: [10, 10, null], affected: [null, 5, null] });
  });

  it("gives healthy vs affected per segment: the fixed client's healthy segments read level across the failover", () => {
    const sc = loadScenario(shortenedPreset('failover', 8000, 0.5));
    const s = runScenario(sc).summary;
    const table = formatSummary(s);
    const line = (name: string) => (table.split('\n').find((l) => l.startsWith(`  ${name}`)) as string).slice(13, 13 + s.throughput.healthy.length);
    const healthy = line('healthy');
    // every second at the same height within one tick (in totals the fault's second would drop by a third)
    const ticks = [...healthy].map((c) => '▁▂▃▄▅▆▇█'.indexOf(c)).slice(1);
    expect(Math.max(...ticks) - Math.min(...ticks)).toBeLessThanOrEqual(1);
    // no segment is affected before the fault: blanks there
    const faultSec = Math.floor((sc.faults[0]?.atMs ?? 0) / 1000);
    expect(line('affected').slice(0, faultSec)).toBe(' '.repeat(faultSec));
    expect(table).toContain('served ops/s per segment, one scale');
  });
});
