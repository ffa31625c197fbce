/**
 * Reused per-operation events (OpEventSink.transient): a run whose sinks
 * are all transient gets the client's scratch objects, refilled; any other
 * sink gets a new object per event. Both must come to the same summary and
 * the same event stream.
 */
import { describe, expect, it } from 'vitest';
import { toNdjsonLine } from '../telemetry/ndjson';
import { teeSink, type OpEventSink, type TelemetrySink, type ZarisEvent } from '../telemetry/events';
import { RunAggregator } from '../telemetry/runAggregator';
import { findPreset } from './presets';
import { runScenario } from './runScenario';
import { loadScenario, type ScenarioInput } from './scenario';
import { SimEngine } from './engine';

const input = findPreset('failover')?.input as ScenarioInput;
const scenario = loadScenario({ ...input, durationMs: 8000 }, 'test');

/** a transient sink that serializes each event as it comes (as NDJSON output does) */
class TransientLines implements OpEventSink {
  readonly transient = true;
  readonly lines: string[] = [];
  readonly objects = new Set<object>();
  emit(e: ZarisEvent): void {
    this.lines.push(toNdjsonLine(e));
  }
  private take(e: ZarisEvent): void {
    this.objects.add(e);
    this.emit(e);
  }
  opStart = (e: ZarisEvent): void => this.take(e);
  attemptStart = (e: ZarisEvent): void => this.take(e);
  attemptEnd = (e: ZarisEvent): void => this.take(e);
  opEnd = (e: ZarisEvent): void => this.take(e);
}

describe('reused per-operation events', () => {
  it('a run with only transient sinks gets four objects for all per-operation events, and the same stream as fresh events', () => {
    const reused = new TransientLines();
    new SimEngine(scenario, { sinks: [new RunAggregator(), reused] }).run();
    expect(reused.objects.size).toBe(4);
    // a plain sink in the fan-out: every event is a new object
    const fresh: string[] = [];
    const kept = new Set<ZarisEvent>();
    const plain: TelemetrySink = {
      emit: (e) => {
        kept.add(e);
        fresh.push(toNdjsonLine(e));
      },
    };
    new SimEngine(scenario, { sinks: [new RunAggregator(), plain] }).run();
    expect(kept.size).toBe(fresh.length);
    expect(reused.lines.length).toBeGreaterThan(10_000);
    expect(reused.lines).toEqual(fresh);
  });

  it('the summary is the same whether the sinks get reused or fresh events', () => {
    const withScratch = runScenario(scenario).summary;
    // a non-transient extra sink makes the whole fan-out non-transient
    const withFresh = runScenario(scenario, { sinks: [{ emit: () => {} }] }).summary;
    expect(JSON.stringify(withScratch)).toBe(JSON.stringify(withFresh));
  });

  it('a fan-out is transient only when every member is', () => {
    const t: OpEventSink = { transient: true, emit() {}, opStart() {}, attemptStart() {}, attemptEnd() {}, opEnd() {} };
    const plain: TelemetrySink = { emit() {} };
    expect((teeSink([t, t]) as OpEventSink).transient).toBe(true);
    expect((teeSink([t, t, t]) as OpEventSink).transient).toBe(true);
    expect((teeSink([t, plain]) as OpEventSink).transient).toBe(false);
    expect((teeSink([t, t, t, plain]) as OpEventSink).transient).toBe(false);
  });
});
