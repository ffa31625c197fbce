/** The bridge to one compare worker: a scenario run once to its end, its summary and its events. */
import * as Comlink from 'comlink';
import type { Scenario } from '../../core/sim/scenario';
import type { CompareSideResult, CompareWorkerApi } from '../../../workers/compare.worker';

export type { CompareSideResult };

export class CompareSession {
  private readonly worker: Worker;
  private readonly api: Comlink.Remote<CompareWorkerApi>;

  constructor(onError: (message: string) => void) {
    this.worker = new Worker(new URL('../../../workers/compare.worker.ts', import.meta.url), { type: 'module', name: 'compare' });
    this.worker.onerror = (e) => onError(`compare worker error: ${e.message}`);
    this.api = Comlink.wrap<CompareWorkerApi>(this.worker);
  }

  run(scenario: Scenario): Promise<CompareSideResult> {
    return this.api.run(scenario);
  }

  dispose(): void {
    this.worker.terminate();
  }
}
