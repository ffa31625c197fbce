/**
 * JSON in a URL parameter: UTF-8, optionally LZW-compressed, base64url.
 * The first character says which: `j` plain, `z` compressed. Decoding is
 * hostile-input safe: bounded output, no eval, every malformed input is a
 * plain Error with a message (callers wrap it in an InputError).
 */

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const B64_INDEX = new Map([...B64].map((c, i) => [c, i]));

export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = ((bytes[i] as number) << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - i) * 8) / 6));
    for (let k = 0; k < chars; k++) out += B64[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

export function fromBase64Url(s: string): Uint8Array {
  if (s.length % 4 === 1) throw new Error('is not valid base64url (wrong length)');
  const out = new Uint8Array(Math.floor((s.length * 6) / 8));
  let bits = 0;
  let acc = 0;
  let o = 0;
  for (const c of s) {
    const v = B64_INDEX.get(c);
    if (v === undefined) throw new Error(`is not valid base64url (character ${JSON.stringify(c)})`);
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 255;
      acc &= (1 << bits) - 1;
    }
  }
  return out;
}

const MAX_CODES = 1 << 16;
/** code width of the i-th code: enough for every code either side can have made by then */
const widthAt = (i: number): number => Math.min(16, Math.max(9, Math.ceil(Math.log2(256 + i + 1))));

/** LZW over bytes, variable code width (9..16 bits), LSB-first bit packing */
export function lzwCompress(input: Uint8Array): Uint8Array {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  let i = 0;
  const emit = (code: number): void => {
    acc |= code << bits;
    bits += widthAt(i++);
    while (bits >= 8) {
      out.push(acc & 255);
      acc >>>= 8;
      bits -= 8;
    }
  };
  if (input.length === 0) return new Uint8Array(0);
  const dict = new Map<number, number>();
  let next = 256;
  let w = input[0] as number;
  for (let k = 1; k < input.length; k++) {
    const c = input[k] as number;
    const key = w * 256 + c;
    const hit = dict.get(key);
    if (hit !== undefined) {
      w = hit;
      continue;
    }
    emit(w);
    if (next < MAX_CODES) dict.set(key, next++);
    w = c;
  }
  emit(w);
  if (bits > 0) out.push(acc & 255);
  return Uint8Array.from(out);
}

export function lzwDecompress(input: Uint8Array, maxBytes: number): Uint8Array {
  const table: Uint8Array[] = [];
  for (let c = 0; c < 256; c++) table.push(Uint8Array.of(c));
  const out = new Uint8Array(maxBytes);
  let o = 0;
  let acc = 0;
  let bits = 0;
  let pos = 0;
  let prev: Uint8Array | null = null;
  for (let i = 0; ; i++) {
    const width = widthAt(i);
    while (bits < width && pos < input.length) {
      acc |= (input[pos++] as number) << bits;
      bits += 8;
    }
    if (bits < width) break;
    const code = acc & ((1 << width) - 1);
    acc >>>= width;
    bits -= width;
    let entry: Uint8Array;
    if (code < table.length) entry = table[code] as Uint8Array;
    else if (code === table.length && prev !== null) entry = concat(prev, prev[0] as number);
    else throw new Error('is corrupt (bad compressed data)');
    if (prev !== null && table.length < MAX_CODES) table.push(concat(prev, entry[0] as number));
    if (o + entry.length > maxBytes) throw new Error(`is too large when unpacked (over ${maxBytes} bytes)`);
    out.set(entry, o);
    o += entry.length;
    prev = entry;
  }
  return out.slice(0, o);
}

function concat(a: Uint8Array, b: number): Uint8Array {
  const x = new Uint8Array(a.length + 1);
  x.set(a);
  x[a.length] = b;
  return x;
}

/** JSON value → `j…` or `z…`, whichever is shorter */
export function encodeJsonParam(value: unknown): string {
  const bytes = new TextEncoder().encode(JSON.stringify(value));
  const plain = `j${toBase64Url(bytes)}`;
  const packed = `z${toBase64Url(lzwCompress(bytes))}`;
  return packed.length < plain.length ? packed : plain;
}

/** `j…` / `z…` → the parsed JSON value (throws Error with a message on bad input) */
export function decodeJsonParam(s: string, maxBytes: number): unknown {
  const kind = s[0];
  if (kind !== 'j' && kind !== 'z') throw new Error('must start with "j" (JSON) or "z" (compressed JSON), as the app writes it');
  const raw = fromBase64Url(s.slice(1));
  const bytes = kind === 'z' ? lzwDecompress(raw, maxBytes) : raw;
  if (bytes.length > maxBytes) throw new Error(`is too large (over ${maxBytes} bytes)`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new Error('is not valid UTF-8 text');
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new Error(`is not valid JSON: ${(e as Error).message}`, { cause: e });
  }
}
