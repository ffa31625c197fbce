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
  const at = /at position (\d+)/.exec(oneLine);
  if (at === null || /\bline\b/.test(oneLine)) return oneLine;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${oneLine} (line ${line}, column ${column})`;
}
