import type { z } from 'zod';

/** One problem with an input, located by its field path. */
export interface InputIssue {
  /** dotted field path, e.g. `faults[2].action` or `ZARIS_REQUEST_TIMEOUT` */
  readonly path: string;
  readonly message: string;
}

/** Bad input (config, scenario, URL, imported file): names every bad field. */
export class InputError extends Error {
  constructor(
    /** what was being read, e.g. "scenario failover.json" */
    readonly source: string,
    readonly issues: readonly InputIssue[],
  ) {
    super(`${source}: ${issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`);
    this.name = 'InputError';
  }
}

/** `a.b[2].c` from a zod issue path */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out === '' ? String(p) : `.${String(p)}`;
  }
  return out;
}

/** zod error → issues with paths and messages that name the allowed values */
export function issuesOf(error: z.ZodError, prefix = ''): InputIssue[] {
  return error.issues.map((issue) => {
    const path = formatPath([...(prefix ? [prefix] : []), ...issue.path]);
    let message = issue.message;
    if (issue.code === 'unrecognized_keys') {
      message = `unknown field(s) ${issue.keys.map((k) => `"${k}"`).join(', ')} (typo? unknown fields are not allowed)`;
    }
    return { path, message };
  });
}

/** parses `input` with `schema` or throws an {@link InputError} naming each bad field */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, source: string): z.output<S> {
  const r = schema.safeParse(input);
  if (!r.success) throw new InputError(source, issuesOf(r.error));
  return r.data;
}
