/**
 * The final-state check of acknowledged writes against the cluster's data,
 * as the live session runs it on Pause (the nodes' data) and the headless
 * engine at the end of a run: counterexamples are the op ids that wrote the
 * lost versions.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_CLIENT_CONFIG } from '../client/config';
import { KvStatus } from '../domain/status';
import type { ZarisEvent } from '../telemetry/events';
import { InvariantChecker } from './invariants';

function acked(op: number, key: string, version: number, t: number): ZarisEvent[] {
  return [
    { t: t - 1, type: 'op.start', op, kind: 'put', key, segment: 0 },
    { t, type: 'op.end', op, status: KvStatus.Ok, attempts: 1, latencyMs: 1, version },
  ] as ZarisEvent[];
}

function lostCheck(checker: InvariantChecker) {
  return checker.report().checks.find((c) => c.name === 'noLostAckedWrites');
}

describe('final-state check', () => {
  it('names the op ids whose acknowledged versions the cluster no longer holds', () => {
    const checker = new InvariantChecker(() => DEFAULT_CLIENT_CONFIG);
    for (const e of [...acked(7, 'a', 3, 10), ...acked(8, 'b', 1, 11), ...acked(9, 'c', 2, 12)]) checker.emit(e);
    expect(lostCheck(checker)).toMatchObject({ ok: true, detail: expect.stringContaining('checked on Pause') });
    const held = new Map([['a', 3], ['b', 0], ['c', 1]]);
    checker.checkFinalData((k) => held.get(k) ?? 0);
    expect(lostCheck(checker)).toMatchObject({ ok: false, violations: 2, examples: [8, 9], detail: expect.stringContaining('b, c') });
    expect(checker.report().ok).toBe(false);
  });

  it('leaves out writes acknowledged after the data was read, and a later check replaces an earlier one', () => {
    const checker = new InvariantChecker(() => DEFAULT_CLIENT_CONFIG);
    for (const e of [...acked(1, 'a', 1, 10), ...acked(2, 'b', 1, 50)]) checker.emit(e);
    checker.checkFinalData((k) => (k === 'a' ? 1 : 0), 20);
    expect(lostCheck(checker)).toMatchObject({ ok: true, detail: expect.stringContaining('the final data holds every acknowledged version') });
    checker.checkFinalData(() => 0, 100);
    expect(lostCheck(checker)).toMatchObject({ ok: false, examples: [1, 2] });
    checker.checkFinalData(() => 1, 100);
    expect(lostCheck(checker)?.ok).toBe(true);
  });
});
