/**
 * Coalesces the messages one task posts to a MessagePort into one array
 * message, sent at the end of the task (a microtask): the high-rate
 * client ↔ node traffic pays one structured clone and one message event per
 * task and port instead of one per request. Order on the port is kept, and
 * nothing waits longer than the task that produced it.
 */
export class PortBatcher<T> {
  private readonly outboxes = new Map<MessagePort, T[]>();

  /** queues `msg` for `port` (sent with the others of this task) */
  post(port: MessagePort, msg: T): void {
    const box = this.outboxes.get(port);
    if (box !== undefined) {
      box.push(msg);
      return;
    }
    this.outboxes.set(port, [msg]);
    queueMicrotask(() => this.flush(port));
  }

  /** sends what is queued for `port` now */
  flush(port: MessagePort): void {
    const box = this.outboxes.get(port);
    if (box === undefined) return;
    this.outboxes.delete(port);
    port.postMessage(box);
  }

  /** forgets what is queued for `port` (its link is gone) */
  drop(port: MessagePort): void {
    this.outboxes.delete(port);
  }
}
