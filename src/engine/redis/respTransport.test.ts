import { createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { errorCodeOf, type TransportOutcome } from '../../core/client/transport';
import type { NodeRequest } from '../../core/domain/protocol';
import type { ZarisEvent } from '../../core/telemetry/events';
import { RequestDeadlines } from './connection';
import { NodeDirectory } from './nodeDirectory';
import { RespParser, type RespValue } from './resp';
import { RespTransport } from './respTransport';

/** what the fake node does with one command: a raw RESP reply, or hang / reset the connection */
type Behaviour = (args: readonly string[]) => string | 'hang' | 'reset' | { readonly afterMs: number; readonly reply: string };

interface FakeNode {
  readonly port: number;
  readonly seen: string[][];
  close(): Promise<void>;
}

const open: Server[] = [];
const openSockets: Socket[] = [];

async function fakeNode(behaviour: Behaviour): Promise<FakeNode> {
  const seen: string[][] = [];
  const server = createServer((sock) => {
    openSockets.push(sock);
    const parser = new RespParser();
    // replies go out in request order, as Redis sends them (a delayed one holds back the next)
    let chain = Promise.resolve();
    sock.on('data', (chunk) =>
      parser.feed(chunk, (v: RespValue) => {
        const args = (v as string[]).map(String);
        seen.push(args);
        const r = behaviour(args);
        chain = chain.then(async () => {
          if (r === 'reset') sock.resetAndDestroy();
          else if (typeof r === 'object') {
            await new Promise((res) => setTimeout(res, r.afterMs));
            sock.write(r.reply);
          } else if (r !== 'hang') sock.write(r);
        });
      }),
    );
    sock.on('error', () => {});
  });
  open.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const a = server.address();
  const port = typeof a === 'object' && a !== null ? a.port : 0;
  return { port, seen, close: () => new Promise((r) => server.close(() => r())) };
}

afterEach(async () => {
  for (const s of openSockets.splice(0)) s.destroy();
  await Promise.all(open.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const script = (status: string, value: string | null, version: number): string =>
  `*3\r\n$${status.length}\r\n${status}\r\n${value === null ? '$-1\r\n' : `$${value.length}\r\n${value}\r\n`}:${version}\r\n`;

const clock = { now: () => 0, setTimer: () => 0, clearTimer: () => {} };

function transport(ports: readonly number[], opts: { waitReplicas?: number } = {}) {
  const directory = new NodeDirectory();
  ports.forEach((p, i) => directory.add(i, p));
  const events: ZarisEvent[] = [];
  const t = new RespTransport({ directory, deadlines: new RequestDeadlines(), scheduler: clock, sink: () => ({ emit: (e) => events.push(e) }), ...opts });
  const send = (node: number, request: NodeRequest, timeoutMs = 500): Promise<TransportOutcome> => new Promise((r) => t.send(node, request, timeoutMs, r));
  return { t, send, events };
}

const get = (key = 'k1'): NodeRequest => ({ type: 'data', kind: 'get', key, segment: 5, epoch: 1, op: 42 });
const put = (key = 'k1'): NodeRequest => ({ type: 'data', kind: 'put', key, value: 'v', segment: 5, epoch: 1, op: 43 });

describe('RespTransport', () => {
  it('sends one EVAL of the data script and reads status, value and version', async () => {
    const node = await fakeNode(() => script('Ok', 'hello', 3));
    const { t, send } = transport([node.port]);
    expect(await send(0, get())).toEqual({ ok: true, reply: { status: 'Ok', value: 'hello', version: 3 } });
    expect(node.seen[0]?.[0]).toBe('EVAL');
    expect(node.seen[0]?.slice(2)).toEqual(['1', 'k1', 'g', '', '', '0', '42']);
    t.close();
  });

  it('maps MOVED / TRYAGAIN / CLUSTERDOWN / LOADING / READONLY to statuses and other errors to NonRetryable', async () => {
    const replies = ['-MOVED 5 127.0.0.1:1\r\n', '-TRYAGAIN x\r\n', '-CLUSTERDOWN The cluster is down\r\n', '-LOADING x\r\n', '-READONLY x\r\n', '-ERR nope\r\n'];
    let i = 0;
    const node = await fakeNode(() => replies[i++] as string);
    const { t, send } = transport([node.port]);
    const out = [];
    for (let k = 0; k < replies.length; k++) out.push(await send(0, put()));
    expect(out.slice(0, 5).map((o) => (o.ok ? o.reply.status : 'error'))).toEqual(['Moved', 'Migrating', 'Unavailable', 'Unavailable', 'ReplicaWriteRejected']);
    const last = out[5] as TransportOutcome;
    expect(last.ok).toBe(false);
    expect(!last.ok && errorCodeOf(last.error)).toBe('NonRetryable');
    t.close();
  });

  it('follows ASK inside the attempt: ASKING + the request on the named node, reported as attempt.ask', async () => {
    const target = await fakeNode((args) => (args[0] === 'ASKING' ? '+OK\r\n' : script('Ok', null, 9)));
    const source = await fakeNode(() => `-ASK 5 127.0.0.1:${target.port}\r\n`);
    const { t, send, events } = transport([source.port, target.port]);
    expect(await send(0, put())).toEqual({ ok: true, reply: { status: 'Ok', version: 9 } });
    expect(target.seen.map((a) => a[0])).toEqual(['ASKING', 'EVAL']);
    expect(events).toEqual([{ t: 0, type: 'attempt.ask', op: 43, node: 0, to: 1, segment: 5 }]);
    expect(t.asks).toBe(1);
    t.close();
  });

  it('refused connection → NodeUnavailable, reset with a request in flight → Socket, no answer → Timeout', async () => {
    const gone = await fakeNode(() => 'hang');
    const goneport = gone.port;
    await gone.close();
    const resetting = await fakeNode(() => 'reset');
    const silent = await fakeNode(() => 'hang');
    const { t, send } = transport([goneport, resetting.port, silent.port]);
    const codes = [];
    for (const [node, timeout] of [[0, 500], [1, 500], [2, 50]] as const) {
      const o = await send(node, get(), timeout);
      codes.push(o.ok ? 'ok' : errorCodeOf(o.error));
    }
    expect(codes).toEqual(['NodeUnavailable', 'Socket', 'Timeout']);
    t.close();
  });

  it('drops a late reply after a timeout and matches the next reply to the next request (FIFO)', async () => {
    let n = 0;
    const node = await fakeNode(() => (++n === 1 ? { afterMs: 80, reply: script('Ok', 'first', 1) } : script('Ok', 'second', 2)));
    const { t, send } = transport([node.port]);
    const first = await send(0, get(), 30);
    expect(!first.ok && errorCodeOf(first.error)).toBe('Timeout');
    expect(await send(0, get(), 500)).toEqual({ ok: true, reply: { status: 'Ok', value: 'second', version: 2 } });
    t.close();
  });

  it('with waitReplicas, a write is acknowledged only when WAIT reports enough replicas', async () => {
    let acks = 0;
    const node = await fakeNode((args) => (args[0] === 'WAIT' ? `:${acks}\r\n` : script('Ok', null, 4)));
    const { t, send } = transport([node.port], { waitReplicas: 1 });
    const short = await send(0, put());
    expect(!short.ok && errorCodeOf(short.error)).toBe('Timeout');
    acks = 1;
    expect(await send(0, put())).toEqual({ ok: true, reply: { status: 'Ok', version: 4 } });
    expect(node.seen.filter((a) => a[0] === 'WAIT')[0]).toEqual(['WAIT', '1', '1000']);
    // reads never wait
    await send(0, get());
    expect(node.seen.filter((a) => a[0] === 'WAIT')).toHaveLength(2);
    t.close();
  });

  it('fetches the map with CLUSTER NODES', async () => {
    const text = 'a0 127.0.0.1:7000@17000 myself,master - 0 0 4 connected 0-16383\n';
    const node = await fakeNode(() => `$${text.length}\r\n${text}\r\n`);
    const { t, send } = transport([node.port]);
    const o = await send(0, { type: 'map' });
    expect(o.ok && 'map' in o.reply && o.reply.map.epoch).toBe(4);
    expect(node.seen[0]).toEqual(['CLUSTER', 'NODES']);
    t.close();
  });
});
