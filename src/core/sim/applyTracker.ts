import type { TelemetrySink, ZarisEvent } from '../telemetry/events';
import { OpTable } from '../telemetry/opTable';

/**
 * Ground truth from the cluster's side: how many times each operation's
 * write was applied. More than once means a retry re-applied a write whose
 * acknowledgement was lost (at-least-once). Entries live only while the
 * operation is in flight, so memory stays bounded.
 */
export class ApplyTracker implements TelemetrySink {
  private readonly inFlight = new OpTable<number>();
  /** operations whose write was applied more than once */
  duplicateOps = 0;
  /** extra applies in total */
  duplicateApplies = 0;
  /** the first duplicated op ids (for reports) */
  readonly examples: number[] = [];

  /** called by the data path for every applied write */
  onApply(op: number): void {
    this.inFlight.set(op, (this.inFlight.get(op) ?? 0) + 1);
  }

  emit(e: ZarisEvent): void {
    if (e.type !== 'op.end') return;
    const n = this.inFlight.get(e.op);
    if (n === undefined) return;
    this.inFlight.delete(e.op);
    if (n > 1) {
      this.duplicateOps++;
      this.duplicateApplies += n - 1;
      if (this.examples.length < 20) this.examples.push(e.op);
    }
  }
}
