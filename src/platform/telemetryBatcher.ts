import { EventBatchBuilder, transferables } from '../core/telemetry/eventCodec';
import type { TelemetrySink, ZarisEvent } from '../core/telemetry/events';

/**
 * Collects events into columnar batches and posts one batch per flush
 * period (≈ one frame) with its buffers transferred — never one message per
 * event.
 */
export class TelemetryBatcher implements TelemetrySink {
  private readonly builder = new EventBatchBuilder(4096);
  private timer: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly port: MessagePort,
    private readonly periodMs = 16,
  ) {}

  emit(e: ZarisEvent): void {
    this.builder.push(e);
  }

  start(): void {
    if (this.timer === null) this.timer = setInterval(() => this.flush(), this.periodMs);
  }

  flush(): void {
    if (this.builder.length === 0) return;
    const batch = this.builder.take();
    this.port.postMessage({ kind: 'batch', batch }, transferables(batch));
  }

  stop(): void {
    if (this.timer !== null) clearInterval(this.timer);
    this.timer = null;
    this.flush();
  }
}
