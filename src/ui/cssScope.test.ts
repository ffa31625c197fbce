/**
 * The stylesheets share one page: a class styled on its own (`.name { … }`) in two files is two
 * rules for one element, and which wins depends on which file loaded last. Replay's stylesheet is
 * loaded only when that tab first opens, so its `.recording` (the memory note, max-width 360 px)
 * reached the Live tab's recording bar, also `.recording`, after a visit to Replay: at 1280 px the
 * bar's text then ran over the tabs and "Replay in engine" broke over three lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const UI = join(process.cwd(), 'src', 'ui');

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? cssFiles(join(dir, d.name)) : d.name.endsWith('.css') ? [join(dir, d.name)] : []));
}

/** the classes a stylesheet styles on their own: a rule whose selector list holds a bare `.name` */
export function bareClasses(css: string): Set<string> {
  const out = new Set<string>();
  const noComments = css.replace(/\/\*[\s\S]*?\*\//g, '');
  // selectors are what precede a `{`; a media query's own block opens with `@`
  for (const m of noComments.matchAll(/([^{}]+)\{/g)) {
    const list = (m[1] ?? '').trim();
    if (list.startsWith('@')) continue;
    for (const sel of list.split(',')) {
      const bare = /^\.([A-Za-z][\w-]*)$/.exec(sel.trim());
      if (bare?.[1] !== undefined) out.add(bare[1]);
    }
  }
  return out;
}

describe('stylesheet scope', () => {
  it('reads bare class rules, not compound or descendant ones', () => {
    expect([...bareClasses('.a { x: 1 } .b.c { } .d .e { } .f, .g:hover { } @media (max-width: 9px) { .h { } } /* .i { } */')].sort()).toEqual(['a', 'f', 'h']);
  });

  it('styles each class on its own in one stylesheet only', () => {
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const file of cssFiles(UI)) {
      const name = relative(UI, file);
      for (const c of bareClasses(readFileSync(file, 'utf8'))) {
        const first = owner.get(c);
        if (first !== undefined && first !== name) twice.push(`.${c} in ${first} and ${name}`);
        else owner.set(c, name);
      }
    }
    expect(twice).toEqual([]);
  });
});
