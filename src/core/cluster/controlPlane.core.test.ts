/**
 * The control plane as a pure state machine (raft's shape): inputs with the
 * time in, outputs as values out — no scheduler, no sink, no data mover.
 * Cluster: 3 nodes, 6 segments, 1 replica (segment s: owner s % 3, replica
 * (s + 1) % 3; node 1 owns 1 and 4).
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../rng';
import { DEFAULT_CLUSTER_CONFIG, type ClusterConfig } from './clusterConfig';
import { ControlPlane, type ControlOutput, type ControlTimer } from './controlPlane';
import { ControlState } from './controlState';
import { HANDOFF_TIMEOUT_MS } from './handoff';

const CONFIG: ClusterConfig = { ...DEFAULT_CLUSTER_CONFIG, nodes: 3, segments: 6, replicas: 1, catchUpBaseMs: 400, catchUpMsPerKey: 0, handoffMs: 300 };

function core(seed = 1) {
  const state = new ControlState(CONFIG);
  const cp = new ControlPlane(state, Rng.seeded(seed).stream(2), { detection: 'modelled', keyCount: () => 0 });
  return { state, cp };
}

const timers = (out: readonly ControlOutput[]): { afterMs: number; timer: ControlTimer }[] => out.flatMap((o) => (o.kind === 'timer' ? [{ afterMs: o.afterMs, timer: o.timer }] : []));
const kinds = (out: readonly ControlOutput[]): string[] =>
  out.map((o) => (o.kind === 'event' ? `${o.event.type}:${o.event.type === 'topology' ? o.event.change : o.event.action}` : o.kind));
const timerOf = <K extends ControlTimer['kind']>(out: readonly ControlOutput[], kind: K) =>
  timers(out).find((t) => t.timer.kind === kind) as { afterMs: number; timer: Extract<ControlTimer, { kind: K }> };

/** node 1 crashes at 1 s and is declared dead at its detection check */
function crashed() {
  const env = core();
  env.cp.apply({ action: 'failover', node: 1 }, 1_000);
  const out = env.cp.ready();
  const check = timerOf(out, 'detectionCheck');
  const deadAt = 1_000 + check.afterMs;
  env.cp.fire(check.timer, deadAt);
  return { ...env, crashOut: out, deadAt, deadOut: env.cp.ready() };
}

describe('inputs in, outputs out', () => {
  it('an input decides; nothing happens until the shell takes the outputs, and they are taken once', () => {
    const { cp, state } = core();
    cp.announce(0);
    cp.apply({ action: 'failover', node: 1 }, 1_000);
    expect(state.node(1).status).toBe('down'); // the record changed at once
    const out = cp.ready();
    expect(kinds(out)).toEqual(['topology:initial', 'fault:failover', 'timer']);
    expect(out[1]).toEqual({ kind: 'event', event: { t: 1_000, type: 'fault', action: 'failover', node: 1, segments: [1, 4] } });
    expect(cp.ready()).toEqual([]);
  });

  it('a crash sets one detection check, within the rule’s bound; firing it fails the segments over', () => {
    const { crashOut, deadAt, deadOut, state } = crashed();
    const { failureTimeoutMs, heartbeatMs } = CONFIG;
    expect(timers(crashOut)).toHaveLength(1);
    expect(deadAt - 1_000).toBeGreaterThanOrEqual(failureTimeoutMs);
    expect(deadAt - 1_000).toBeLessThanOrEqual(failureTimeoutMs + 2 * heartbeatMs);
    expect(kinds(deadOut)).toEqual(['topology:nodeDown', 'topology:promoted']);
    expect(state.segment(1).owner).toBe(2);
    expect(state.segment(4).owner).toBe(2);
    expect(state.epoch).toBe(2);
  });

  it('a detection check of an older silence (the node restarted since) does nothing', () => {
    const { cp, state } = core();
    cp.apply({ action: 'failover', node: 1 }, 1_000);
    const check = timerOf(cp.ready(), 'detectionCheck');
    cp.apply({ action: 'failback', node: 1 }, 1_500);
    cp.ready();
    cp.fire(check.timer, 1_000 + check.afterMs);
    expect(cp.ready()).toEqual([]);
    expect(state.node(1).declaredDead).toBe(false);
  });

  it('failback: catch-up copies, then fences the former owner; the flip waits for the caught-up report', () => {
    const { cp, state, deadAt } = crashed();
    cp.apply({ action: 'failback', node: 1 }, deadAt + 1_000);
    const back = cp.ready();
    expect(kinds(back)).toEqual(['fault:failback', 'speaksAgain', 'topology:reclaimed', 'topology:catchUpStart', 'timer']);
    const catchUp = timerOf(back, 'catchUpDone');
    expect(catchUp.afterMs).toBe(CONFIG.catchUpBaseMs);
    cp.fire(catchUp.timer, deadAt + 1_400);
    const synced = cp.ready();
    // copies from the current owners: its own segments (1, 4: node 2 now) and the ones it is
    // only a replica of (0, 3: node 0), then the fences of the handback and their timeout
    expect(synced.filter((o) => o.kind === 'copy')).toEqual([
      { kind: 'copy', from: 0, to: 1, segment: 0 },
      { kind: 'copy', from: 2, to: 1, segment: 1 },
      { kind: 'copy', from: 0, to: 1, segment: 3 },
      { kind: 'copy', from: 2, to: 1, segment: 4 },
    ]);
    const fences = synced.filter((o) => o.kind === 'fence');
    expect(fences.map((f) => f.kind === 'fence' && [f.from, f.to, f.segment])).toEqual([
      [2, 1, 1],
      [2, 1, 4],
    ]);
    expect(timerOf(synced, 'handoffTimeout').afterMs).toBe(HANDOFF_TIMEOUT_MS);
    expect(state.segment(1)).toMatchObject({ owner: 2, phase: 'transitioning' });
    const epoch = state.epoch;
    const handoff = fences[0]?.kind === 'fence' ? fences[0].handoff : -1;
    cp.caughtUp(handoff, 1, deadAt + 1_402);
    expect(cp.ready()).toEqual([]); // segment 4 has not caught up yet
    cp.caughtUp(handoff, 4, deadAt + 1_402);
    const flip = cp.ready();
    expect(kinds(flip)).toEqual(['topology:handoffStart', 'activated', 'timer']);
    expect(state.epoch).toBe(epoch + 1); // one epoch for the batch
    expect(state.segment(1)).toMatchObject({ owner: 1, replicas: [2], phase: 'transitioning' });
    cp.fire(timerOf(flip, 'handoffWindowEnds').timer, deadAt + 1_702);
    expect(kinds(cp.ready())).toEqual(['topology:handoffEnd']);
    expect(state.segment(4).phase).toBe('stable');
  });

  it('a handoff whose old owner crashes before the new owner caught up is abandoned at once: unfenced, the old owner keeps the segment', () => {
    const { cp, state, deadAt } = crashed();
    cp.apply({ action: 'failback', node: 1 }, deadAt + 1_000);
    cp.fire(timerOf(cp.ready(), 'catchUpDone').timer, deadAt + 1_400);
    const fences = cp.ready().filter((o) => o.kind === 'fence');
    cp.apply({ action: 'failover', node: 2 }, deadAt + 1_401);
    const out = cp.ready();
    expect(out.filter((o) => o.kind === 'unfence')).toEqual([
      { kind: 'unfence', node: 2, segment: 1 },
      { kind: 'unfence', node: 2, segment: 4 },
    ]);
    expect(state.segment(1)).toMatchObject({ owner: 2, phase: 'stable' });
    // a late report changes nothing
    const id = fences[0]?.kind === 'fence' ? fences[0].handoff : -1;
    cp.caughtUp(id, 1, deadAt + 1_402);
    expect(cp.ready()).toEqual([]);
    expect(state.segment(1).owner).toBe(2);
  });

  it('a handoff with no caught-up report completes at its timeout with nothing flipped', () => {
    const { cp, state, deadAt } = crashed();
    cp.apply({ action: 'failback', node: 1 }, deadAt + 1_000);
    cp.fire(timerOf(cp.ready(), 'catchUpDone').timer, deadAt + 1_400);
    const timeout = timerOf(cp.ready(), 'handoffTimeout');
    const epoch = state.epoch;
    cp.fire(timeout.timer, deadAt + 1_400 + timeout.afterMs);
    expect(cp.ready().filter((o) => o.kind === 'unfence')).toHaveLength(2);
    expect(state.epoch).toBe(epoch);
    expect(state.segment(4)).toMatchObject({ owner: 2, phase: 'stable' });
  });

  it('a link fault is a command for the node’s link, with its fault event', () => {
    const { cp } = core();
    cp.apply({ action: 'slow', node: 0, factor: 4, durationMs: 500 }, 200);
    const out = cp.ready();
    expect(out[0]).toEqual({ kind: 'link', node: 0, cmd: { kind: 'slow', factor: 4, durationMs: 500 } });
    expect(kinds(out)).toEqual(['link', 'fault:slow']);
  });

  it('same inputs, same outputs: the core is deterministic', () => {
    const run = (): string => {
      const { cp, deadAt } = crashed();
      cp.apply({ action: 'scaleOut' }, deadAt + 10);
      const out = cp.ready();
      for (const t of timers(out)) cp.fire(t.timer, deadAt + 10 + t.afterMs);
      return JSON.stringify([out, cp.ready()]);
    };
    expect(run()).toBe(run());
  });
});
