/**
 * The faults on one node's link to its clients — slow link, lost
 * acknowledgements, one-way partition, garbled replies — in one place for
 * both shells: the simulated network (`sim/simNetwork.ts`) and the live node
 * worker (`workers/node.worker.ts`) keep one {@link LinkFaults} per node,
 * set it from the same fault commands and ask it the same questions, with a
 * seeded RNG stream (no unseeded randomness). Times are the shell's ms (virtual or wall).
 */
import type { Rng } from '../rng';

/** which way a one-way partition cuts the client ↔ node link */
export type PartitionDirection = 'in' | 'out';
export const PARTITION_DIRECTIONS: readonly PartitionDirection[] = ['in', 'out'];

export interface LinkFaults {
  /** one-way latency multiplier while `now < slowUntil` */
  slowFactor: number;
  slowUntil: number;
  /** probability that the acknowledgement of a committed write is dropped, while `now < lostAckUntil` */
  lostAckProbability: number;
  lostAckUntil: number;
  /** 'in': requests to the node are lost; 'out': its replies are lost (the node serves them); while `now < partitionUntil` */
  partition: PartitionDirection | null;
  partitionUntil: number;
  /** probability that a reply arrives garbled (a `Transport` error), while `now < garbleUntil` */
  garbleProbability: number;
  garbleUntil: number;
}

export function createLinkFaults(): LinkFaults {
  return { slowFactor: 1, slowUntil: -1, lostAckProbability: 0, lostAckUntil: -1, partition: null, partitionUntil: -1, garbleProbability: 0, garbleUntil: -1 };
}

/** a link fault as a command (the fault registry builds these; each replaces the previous one of its kind) */
export type LinkFaultCommand =
  | { readonly kind: 'slow'; readonly factor: number; readonly durationMs: number }
  | { readonly kind: 'lostAck'; readonly probability: number; readonly durationMs: number }
  | { readonly kind: 'partition'; readonly direction: PartitionDirection; readonly durationMs: number }
  | { readonly kind: 'garble'; readonly probability: number; readonly durationMs: number }
  /** heals every link fault at once */
  | { readonly kind: 'heal' };

export function applyLinkFault(link: LinkFaults, cmd: LinkFaultCommand, now: number): void {
  switch (cmd.kind) {
    case 'slow':
      link.slowFactor = cmd.factor;
      link.slowUntil = now + cmd.durationMs;
      return;
    case 'lostAck':
      link.lostAckProbability = cmd.probability;
      link.lostAckUntil = now + cmd.durationMs;
      return;
    case 'partition':
      link.partition = cmd.direction;
      link.partitionUntil = now + cmd.durationMs;
      return;
    case 'garble':
      link.garbleProbability = cmd.probability;
      link.garbleUntil = now + cmd.durationMs;
      return;
    case 'heal':
      Object.assign(link, createLinkFaults());
      return;
  }
}

/** the one-way latency of a message on this link: `baseMs` × the slow factor while the link is slow */
export function linkLatencyMs(link: LinkFaults, now: number, baseMs: number): number {
  return now < link.slowUntil && link.slowFactor !== 1 ? baseMs * link.slowFactor : baseMs;
}

/** a request on its way to the node is lost (partition 'in') */
export function requestLost(link: LinkFaults, now: number): boolean {
  return link.partition === 'in' && now < link.partitionUntil;
}

/**
 * What becomes of a reply the node sends now: delivered, lost (partition
 * 'out', or a dropped acknowledgement of a committed write) or garbled.
 * Draws from `rng` only while a probabilistic fault is active, in a fixed
 * order (lost ack first), so a seed replays exactly.
 */
export function replyFate(link: LinkFaults, now: number, committedWrite: boolean, rng: Rng): 'deliver' | 'lost' | 'garbled' {
  if (link.partition === 'out' && now < link.partitionUntil) return 'lost';
  if (committedWrite && now < link.lostAckUntil && rng.next() < link.lostAckProbability) return 'lost';
  if (now < link.garbleUntil && rng.next() < link.garbleProbability) return 'garbled';
  return 'deliver';
}
