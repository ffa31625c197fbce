/** Parses an events file in a worker (one worker per import, ended when it answers). */
import * as Comlink from 'comlink';
import type { ImportedLog, ImportWorkerApi } from '../../../workers/import.worker';

export type { ImportedLog };

export async function importEventsInWorker(file: Blob, source: string, onProgress: (fraction: number) => void): Promise<ImportedLog> {
  const worker = new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'import' });
  const api = Comlink.wrap<ImportWorkerApi>(worker);
  try {
    return await api.parse(file, source, Comlink.proxy(onProgress));
  } finally {
    api[Comlink.releaseProxy]();
    worker.terminate();
  }
}
