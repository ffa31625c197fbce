import { describe, expect, it } from 'vitest';
import { PortBatcher } from './portBatcher';

function channel(): { port: MessagePort; received: Promise<unknown[][]>; close: () => void } {
  const ch = new MessageChannel();
  const got: unknown[][] = [];
  let settle: (v: unknown[][]) => void = () => {};
  const received = new Promise<unknown[][]>((r) => (settle = r));
  ch.port2.onmessage = (ev: MessageEvent<unknown[]>) => {
    got.push(ev.data);
    // everything a test posts arrives within a few macrotasks
    setTimeout(() => settle(got), 20);
  };
  return { port: ch.port1, received, close: () => (ch.port1.close(), ch.port2.close()) };
}

describe('PortBatcher', () => {
  it('sends what one task posts as one array message, in order, per port', async () => {
    const a = channel();
    const b = channel();
    const batcher = new PortBatcher<number>();
    for (let i = 0; i < 5; i++) batcher.post(a.port, i);
    batcher.post(b.port, 100);
    batcher.post(a.port, 5);
    expect(await a.received).toEqual([[0, 1, 2, 3, 4, 5]]);
    expect(await b.received).toEqual([[100]]);
    a.close();
    b.close();
  });

  it('a later task starts a new message; flush sends at once; drop forgets', async () => {
    const a = channel();
    const batcher = new PortBatcher<string>();
    batcher.post(a.port, 'x');
    batcher.flush(a.port);
    batcher.post(a.port, 'y');
    await new Promise((r) => setTimeout(r, 0));
    batcher.post(a.port, 'z');
    batcher.drop(a.port);
    batcher.post(a.port, 'w');
    expect(await a.received).toEqual([['x'], ['y'], ['w']]);
    a.close();
  });
});
