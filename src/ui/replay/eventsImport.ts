/**
 * Opening an events file: parsed in the import worker with progress (the
 * main thread only receives columnar batches), or — where there are no
 * workers (unit tests in Node) — by the same parser in place.
 */
import { EventBatchBuilder, type EventBatch } from '../../core/telemetry/eventCodec';
import { parseNdjson } from '../../core/telemetry/eventSchema';
import { importEventsInWorker } from '../bridge/importSession';
import { ColumnarLog } from './columnarLog';

export interface ImportedEvents {
  readonly log: ColumnarLog;
  /** wall ms the parse took (in the worker, or here) */
  readonly parseMs: number;
  readonly offThread: boolean;
}

function parseHere(text: string, source: string): ColumnarLog {
  const batches: EventBatch[] = [];
  const b = new EventBatchBuilder(1 << 15);
  parseNdjson(text, {
    source,
    onEvent: (e) => {
      b.push(e);
      if (b.length >= 1 << 15) batches.push(b.take());
    },
  });
  if (b.length > 0) batches.push(b.take());
  return new ColumnarLog(batches);
}

/** parses an events file (throws an InputError naming line and field); `onProgress` gets 0..1 */
export async function importEvents(file: Blob, source: string, onProgress: (fraction: number) => void = () => undefined): Promise<ImportedEvents> {
  const t0 = performance.now();
  if (typeof Worker === 'undefined') return { log: parseHere(await file.text(), source), parseMs: performance.now() - t0, offThread: false };
  const r = await importEventsInWorker(file, source, onProgress);
  return { log: new ColumnarLog(r.batches), parseMs: r.parseMs, offThread: true };
}
