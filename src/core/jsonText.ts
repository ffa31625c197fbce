/**
 * A scan of JSON text for what `JSON.parse` accepts silently: a key given
 * twice in one object (the last one wins). Run on text that already parsed,
 * so it only needs to follow strings, objects and arrays.
 */

export interface DuplicateKey {
  /** dotted path of the object holding the key, e.g. `client` or `faults[2]` (the key itself for the top level) */
  readonly path: string;
  readonly key: string;
  /** 1-based line of the second occurrence */
  readonly line: number;
}

interface Frame {
  readonly keys: Set<string> | null;
  readonly path: string;
  /** arrays: index of the current element */
  index: number;
  /** objects: the key whose value comes next */
  lastKey: string;
}

/** the first key that appears twice in one object, or null */
export function findDuplicateKey(text: string): DuplicateKey | null {
  const stack: Frame[] = [];
  let line = 1;
  let expectKey = false;
  const childPath = (): string => {
    const top = stack[stack.length - 1];
    if (top === undefined) return '';
    if (top.keys === null) return `${top.path}[${top.index}]`;
    return top.path === '' ? top.lastKey : `${top.path}.${top.lastKey}`;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    else if (c === '"') {
      // the closing quote: the next one not escaped (a string is sliced once, and only a key is
      // kept; building it a character at a time took seconds and gigabytes on a 60 MB value)
      let j = text.indexOf('"', i + 1);
      while (j > 0 && isEscaped(text, j)) j = text.indexOf('"', j + 1);
      if (j < 0) j = text.length;
      const top = stack[stack.length - 1];
      if (expectKey && top !== undefined && top.keys !== null) {
        const key = JSON.parse(text.slice(i, j + 1)) as string;
        if (top.keys.has(key)) return { path: top.path === '' ? key : `${top.path}.${key}`, key, line };
        top.keys.add(key);
        top.lastKey = key;
        expectKey = false;
      }
      i = j;
    } else if (c === '{') {
      stack.push({ keys: new Set(), path: childPath(), index: 0, lastKey: '' });
      expectKey = true;
    } else if (c === '[') {
      stack.push({ keys: null, path: childPath(), index: 0, lastKey: '' });
    } else if (c === '}' || c === ']') {
      stack.pop();
    } else if (c === ',') {
      const top = stack[stack.length - 1];
      if (top !== undefined) {
        if (top.keys === null) top.index++;
        else expectKey = true;
      }
    }
  }
  return null;
}

/** the quote at `j` is escaped: an odd number of backslashes stands right before it */
function isEscaped(text: string, j: number): boolean {
  let n = 0;
  for (let k = j - 1; k >= 0 && text.charCodeAt(k) === 92; k--) n++;
  return n % 2 === 1;
}

/**
 * Text from the user (a flag's value, a path, an environment value) made safe to echo in one
 * line of an error: control characters (line breaks, escape sequences that would drive the
 * terminal) and invisible direction marks are shown as `\n`, `\u001b`, …
 */
export function escapeControls(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g, (c) =>
    c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/**
 * `JSON.parse`'s message as one line: its excerpt of the text may hold line
 * breaks or control characters (shown escaped), and a position is also given
 * as line and column.
 */
export function describeJsonSyntaxError(text: string, message: string): string {
  const oneLine = escapeControls(message);
  if (/\bline\b/.test(oneLine)) return oneLine;
  const at = /at position (\d+)/.exec(oneLine);
  const pos = at !== null ? Number(at[1]) : unexpectedTokenPosition(text, message);
  if (pos === null) return oneLine;
  return `${oneLine}${at === null ? ` at position ${pos}` : ''}${lineColumn(text, pos)}`;
}

/**
 * Where V8's "Unexpected token 'N', …"rationMs":NaN}" is not valid JSON" points (it gives the
 * token and up to 10 characters of context either side, no position): the context's place in
 * the text plus 10 when it was cut at its start, else the first place where the text stops
 * being the beginning of some JSON value. Null when it cannot be told.
 */
function unexpectedTokenPosition(text: string, message: string): number | null {
  const m = /^Unexpected token '([\s\S]+?)', (\.\.\.)?"([\s\S]*?)"(?:\.\.\.)? is not valid JSON$/.exec(message);
  if (m === null) return null;
  const [, token = '', cut, context = ''] = m;
  if (cut !== undefined) {
    for (let start = text.indexOf(context); start >= 0; start = text.indexOf(context, start + 1)) if (text.startsWith(token, start + 10)) return start + 10;
    return null;
  }
  // the whole (short) text is quoted: the first token at which a prefix that was valid so far breaks
  for (let p = text.indexOf(token); p >= 0; p = text.indexOf(token, p + 1)) {
    if (breaksAt(text.slice(0, p + token.length))) return p;
  }
  return null;
}

/** the text's last character makes it no longer the beginning of a JSON value */
function breaksAt(prefix: string): boolean {
  try {
    JSON.parse(prefix);
    return false;
  } catch (e) {
    if (/Unexpected end of JSON input/.test((e as Error).message)) return false;
    const before = prefix.slice(0, -1);
    try {
      JSON.parse(before);
      return true;
    } catch (e2) {
      return /Unexpected end of JSON input/.test((e2 as Error).message) || before.trim() === '';
    }
  }
}

function lineColumn(text: string, pos: number): string {
  const before = text.slice(0, pos);
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return ` (line ${line}, column ${column})`;
}
