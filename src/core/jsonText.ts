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
      let j = i + 1;
      let s = '';
      while (j < text.length && text[j] !== '"') {
        if (text[j] === '\\') {
          s += text.slice(j, j + 2);
          j += 2;
        } else {
          s += text[j];
          j++;
        }
      }
      const top = stack[stack.length - 1];
      if (expectKey && top !== undefined && top.keys !== null) {
        const key = JSON.parse(`"${s}"`) as string;
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

/**
 * `JSON.parse`'s message as one line: its excerpt of the text may hold line
 * breaks or control characters (shown escaped), and a position is also given
 * as line and column.
 */
export function describeJsonSyntaxError(text: string, message: string): string {
  // eslint-disable-next-line no-control-regex
  const oneLine = message.replace(/[\u0000-\u001f\u007f]/g, (c) => (c === '\n' ? '\\n' : c === '\r' ? '\\r' : c === '\t' ? '\\t' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
  const at = /at position (\d+)/.exec(oneLine);
  if (at === null || /\bline\b/.test(oneLine)) return oneLine;
  const before = text.slice(0, Number(at[1]));
  const line = before.split('\n').length;
  const column = before.length - before.lastIndexOf('\n');
  return `${oneLine} (line ${line}, column ${column})`;
}
