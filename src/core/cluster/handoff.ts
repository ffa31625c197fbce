/**
 * The data half of an ownership handoff (failback's handback, scale-out's
 * migration), one rule for both shells. A handoff never has two nodes
 * acknowledging writes for one segment:
 *
 * 1. each old owner is **fenced** (it acknowledges nothing for the segment,
 *    answers OwnershipChanging) and sends its final state to the new owner —
 *    after every write it replicated, on the same FIFO link;
 * 2. the new owner reports that it **caught up** with that final state;
 * 3. when every move caught up — or was **abandoned** (its old owner, or the
 *    new owner, crashed or hung first), or after {@link HANDOFF_TIMEOUT_MS}
 *    — the handoff completes: the control plane flips the segments that
 *    caught up (one epoch for the batch) and lifts the fence of the rest, so
 *    their old owner serves them again.
 *
 * Pure: inputs are the start, `caughtUp`, a node going silent and the
 * timeout firing; the outputs (fence, the timeout to set, the completed
 * handoff) are values the control plane passes on (`controlPlane.ts`).
 * The shells only carry a fence and a caught-up report: the simulation
 * copies the store one replication round trip later (`sim/simControl.ts`),
 * the live playground sends messages (`live/liveControl.ts`,
 * `live/liveNode.ts`).
 */
import type { NodeId } from '../domain/clusterMap';

/** ms a handoff waits for the new owner to catch up before it is abandoned (the old owner keeps the segment) */
export const HANDOFF_TIMEOUT_MS = 5_000;

/** a segment that changes owner: `from` holds the state the new owner must reach */
export interface SegmentMove {
  readonly segment: number;
  readonly from: NodeId;
}

/** why the handoff runs: what the control plane does when it completes */
export type HandoffPurpose = { readonly kind: 'handBack' } | { readonly kind: 'migrate' };

/** a handoff that completed: the moves, and the segments whose new owner caught up */
export interface CompletedHandoff {
  readonly id: number;
  readonly to: NodeId;
  readonly moves: readonly SegmentMove[];
  readonly caughtUp: readonly number[];
  readonly purpose: HandoffPurpose;
}

/** fence `from`'s `segment`: it sends its final state to `to`, which reports `caughtUp(handoff, segment)` */
export interface FenceCommand {
  readonly handoff: number;
  readonly from: NodeId;
  readonly to: NodeId;
  readonly segment: number;
}

interface OpenHandoff {
  readonly to: NodeId;
  readonly moves: readonly SegmentMove[];
  readonly purpose: HandoffPurpose;
  /** segments still waiting for their caught-up report */
  readonly pending: Set<number>;
  readonly caughtUp: number[];
}

export class Handoffs {
  private next = 1;
  private readonly open = new Map<number, OpenHandoff>();

  /** starts a handoff to `to`: the fences to send; the caller sets the timeout ({@link HANDOFF_TIMEOUT_MS}) */
  start(to: NodeId, moves: readonly SegmentMove[], purpose: HandoffPurpose): { readonly id: number; readonly fences: readonly FenceCommand[] } {
    const id = this.next++;
    this.open.set(id, { to, moves, purpose, pending: new Set(moves.map((m) => m.segment)), caughtUp: [] });
    return { id, fences: moves.map((m) => ({ handoff: id, from: m.from, to, segment: m.segment })) };
  }

  /** the new owner holds the fenced owner's final state of `segment`; the handoff if that completed it */
  caughtUp(id: number, segment: number): CompletedHandoff | null {
    const h = this.open.get(id);
    if (h === undefined || !h.pending.delete(segment)) return null;
    h.caughtUp.push(segment);
    return h.pending.size === 0 ? this.complete(id, h) : null;
  }

  /** `node` crashed or hung: its moves (as old or new owner) are abandoned; the handoffs that completed */
  silenced(node: NodeId): CompletedHandoff[] {
    const done: CompletedHandoff[] = [];
    for (const [id, h] of [...this.open]) {
      for (const m of h.moves) if (h.to === node || m.from === node) h.pending.delete(m.segment);
      if (h.pending.size === 0) done.push(this.complete(id, h));
    }
    return done;
  }

  /** the timeout fired: the handoff completes with what caught up (null when it had completed already) */
  timedOut(id: number): CompletedHandoff | null {
    const h = this.open.get(id);
    return h === undefined ? null : this.complete(id, h);
  }

  private complete(id: number, h: OpenHandoff): CompletedHandoff {
    this.open.delete(id);
    return { id, to: h.to, moves: h.moves, caughtUp: h.caughtUp, purpose: h.purpose };
  }
}
