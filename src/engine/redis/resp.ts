/**
 * RESP2 (the Redis serialization protocol) for the engine's sockets: an
 * encoder for commands (arrays of bulk strings) and an incremental parser
 * that takes TCP chunks as they come and hands out whole replies in order.
 * Small on purpose (Redis 7 speaks RESP2 unless a client asks for RESP3);
 * `resp.test.ts` covers every type, split points and malformed input.
 */

/** An error reply (`-ERR …`, `-MOVED 3999 127.0.0.1:7001`, …). */
export class RespError {
  constructor(readonly message: string) {}
  /** the first word: MOVED, ASK, TRYAGAIN, CLUSTERDOWN, LOADING, READONLY, NOSCRIPT, ERR, … */
  get code(): string {
    const sp = this.message.indexOf(' ');
    return sp < 0 ? this.message : this.message.slice(0, sp);
  }
}

/** A reply: simple/bulk string, integer, null, error or a (nested) array. */
export type RespValue = string | number | null | RespError | readonly RespValue[];

/** The stream is not RESP (a bug or a non-Redis peer): the connection must be dropped. */
export class RespProtocolError extends Error {}

/** one command as RESP: `*<n>\r\n` then `$<len>\r\n<bytes>\r\n` per argument */
export function encodeCommand(args: readonly (string | number)[]): Buffer {
  let head = `*${args.length}\r\n`;
  const parts: Buffer[] = [];
  for (const a of args) {
    const s = typeof a === 'number' ? String(a) : a;
    const len = Buffer.byteLength(s);
    head += `$${len}\r\n`;
    // Short arguments ride in the header string; long ones (scripts, values) go as their own buffer.
    if (len < 256) head += `${s}\r\n`;
    else {
      parts.push(Buffer.from(head), Buffer.from(s), CRLF);
      head = '';
    }
  }
  if (parts.length === 0) return Buffer.from(head);
  if (head !== '') parts.push(Buffer.from(head));
  return Buffer.concat(parts);
}

const CRLF = Buffer.from('\r\n');
/** thrown inside the parser when the buffer ends mid-reply (not an error: wait for more) */
const INCOMPLETE = Symbol('incomplete');
/** a reply larger than this is refused (a broken stream, not a real answer) */
const MAX_BULK = 512 * 1024 * 1024;

export class RespParser {
  private buf: Buffer = Buffer.alloc(0);
  private pos = 0;

  /** feeds one chunk; calls `onReply` for every complete reply, in order */
  feed(chunk: Buffer, onReply: (value: RespValue) => void): void {
    this.buf = this.pos < this.buf.length ? Buffer.concat([this.buf.subarray(this.pos), chunk]) : chunk;
    this.pos = 0;
    for (;;) {
      if (this.pos >= this.buf.length) return;
      const start = this.pos;
      let value: RespValue;
      try {
        value = this.value();
      } catch (e) {
        if (e === INCOMPLETE) {
          this.pos = start;
          return;
        }
        throw e;
      }
      onReply(value);
    }
  }

  /** bytes received but not yet a whole reply */
  get pending(): number {
    return this.buf.length - this.pos;
  }

  private line(): string {
    const end = this.buf.indexOf(13, this.pos);
    if (end < 0 || end + 1 >= this.buf.length) throw INCOMPLETE;
    if (this.buf[end + 1] !== 10) throw new RespProtocolError('CR without LF');
    const s = this.buf.toString('utf8', this.pos, end);
    this.pos = end + 2;
    return s;
  }

  private int(): number {
    const s = this.line();
    if (!/^-?\d+$/.test(s)) throw new RespProtocolError(`not an integer: "${s.slice(0, 40)}"`);
    return Number(s);
  }

  private value(): RespValue {
    if (this.pos >= this.buf.length) throw INCOMPLETE;
    const type = this.buf[this.pos++];
    switch (type) {
      case 0x2b: // '+'
        return this.line();
      case 0x2d: // '-'
        return new RespError(this.line());
      case 0x3a: // ':'
        return this.int();
      case 0x24: {
        // '$'
        const len = this.int();
        if (len === -1) return null;
        if (len < 0 || len > MAX_BULK) throw new RespProtocolError(`bad bulk length ${len}`);
        if (this.pos + len + 2 > this.buf.length) throw INCOMPLETE;
        if (this.buf[this.pos + len] !== 13 || this.buf[this.pos + len + 1] !== 10) throw new RespProtocolError('bulk string not followed by CRLF');
        const s = this.buf.toString('utf8', this.pos, this.pos + len);
        this.pos += len + 2;
        return s;
      }
      case 0x2a: {
        // '*'
        const n = this.int();
        if (n === -1) return null;
        if (n < 0) throw new RespProtocolError(`bad array length ${n}`);
        const out: RespValue[] = new Array<RespValue>(n);
        for (let i = 0; i < n; i++) out[i] = this.value();
        return out;
      }
      default:
        throw new RespProtocolError(`unknown reply type byte 0x${(type as number).toString(16)}`);
    }
  }
}
