/**
 * Test helpers for the cluster and the engine: a recording telemetry sink
 * and small builders. Pure (no Node APIs), used only by tests.
 */
import type { EventType, TelemetrySink, ZarisEvent } from '../../telemetry/events';

/** Records every event; `of(type)` returns the events of one type, typed. */
export class Recorder implements TelemetrySink {
  readonly events: ZarisEvent[] = [];

  emit(event: ZarisEvent): void {
    this.events.push(event);
  }

  of<T extends EventType>(type: T): Extract<ZarisEvent, { type: T }>[] {
    return this.events.filter((e): e is Extract<ZarisEvent, { type: T }> => e.type === type);
  }

  /** topology events of one kind of change */
  topology(change: Extract<ZarisEvent, { type: 'topology' }>['change']): Extract<ZarisEvent, { type: 'topology' }>[] {
    return this.of('topology').filter((e) => e.change === change);
  }

  clear(): void {
    this.events.length = 0;
  }
}
