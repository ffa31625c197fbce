/**
 * Imports an events file off the main thread: reads it, parses and
 * validates every line (the same parser as the CLI's), and hands the events
 * back as columnar batches with their buffers transferred — the page never
 * holds a 100 MB string or a million event objects, and stays responsive
 * while a progress callback reports how far the parser is.
 */
import * as Comlink from 'comlink';
import { EventBatchBuilder, transferables, type EventBatch } from '../src/core/telemetry/eventCodec';
import { parseNdjson } from '../src/core/telemetry/eventSchema';

const BATCH = 1 << 15;

export interface ImportedLog {
  readonly batches: readonly EventBatch[];
  readonly events: number;
  readonly bytes: number;
  /** wall ms spent reading + parsing in the worker */
  readonly parseMs: number;
}

const api = {
  async parse(file: Blob, source: string, onProgress: (fraction: number) => void): Promise<ImportedLog> {
    const t0 = performance.now();
    const text = await file.text();
    onProgress(0);
    const batches: EventBatch[] = [];
    const b = new EventBatchBuilder(BATCH);
    let events = 0;
    parseNdjson(text, {
      source,
      onProgress,
      onEvent: (e) => {
        b.push(e);
        events++;
        if (b.length >= BATCH) batches.push(b.take());
      },
    });
    if (b.length > 0) batches.push(b.take());
    onProgress(1);
    const out: ImportedLog = { batches, events, bytes: file.size, parseMs: performance.now() - t0 };
    return Comlink.transfer(out, batches.flatMap(transferables));
  },
};

export type ImportWorkerApi = typeof api;
Comlink.expose(api);
