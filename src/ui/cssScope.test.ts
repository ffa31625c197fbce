/**
 * The stylesheets share one page: a class styled on its own (`.name { … }`) in two files is two
 * rules for one element, and which wins depends on which file loaded last. Replay's stylesheet is
 * loaded only when that tab first opens, so its `.recording` (the memory note, max-width 360 px)
 * reached the Live tab's recording bar, also `.recording`, after a visit to Replay: at 1280 px the
 * bar's text then ran over the tabs and "Replay in engine" broke over three lines. Its `.verdicts`
 * (the header's verdicts, inline-flex) likewise turned Compare's invariant table (`delta verdicts`)
 * into a flex box after a visit to Replay: its A / B headings no longer stood over their columns.
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

/** the classes named in a component's className attributes (string and template literals) */
export function classNamesIn(tsx: string): Set<string> {
  const out = new Set<string>();
  for (const m of tsx.matchAll(/className=(?:"([^"]*)"|\{([^}]*(?:\}[^}]*)?)\})/g)) {
    const expr = m[1] !== undefined ? `"${m[1]}"` : (m[2] ?? '');
    // the quoted strings anywhere (inside a template's \${…} too), and the templates' own text
    const texts = [...expr.matchAll(/'([^']*)'|"([^"]*)"/g)].map((l) => l[1] ?? l[2] ?? '');
    for (const t of expr.matchAll(/`([^`]*)`/g)) texts.push((t[1] ?? '').replace(/\$\{[^}]*\}/g, ' '));
    for (const text of texts) for (const token of text.split(/\s+/)) if (/^[A-Za-z][\w-]*$/.test(token)) out.add(token);
  }
  return out;
}

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? tsxFiles(join(dir, d.name)) : d.name.endsWith('.tsx') ? [join(dir, d.name)] : []));
}

/** the stylesheets a view loads when it first opens (lazy chunks), and the folders whose components they are meant for */
const LAZY_SHEETS: Readonly<Record<string, readonly string[]>> = {
  'replay/replay.css': ['replay'],
  'compare/compare.css': ['compare'],
  'timeline/timeline.css': ['timeline', 'replay', 'compare'],
};

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

  it('reads the classes of className attributes', () => {
    expect([...classNamesIn('<a className="x y-z" /><b className={`tab ${on ? \'on\' : \'\'}`} /><i className={ok ? "p" : \'q r\'} />')].sort()).toEqual(['on', 'p', 'q', 'r', 'tab', 'x', 'y-z']);
  });

  it("a lazily loaded view's stylesheet styles on their own only classes of that view's components", () => {
    const users = new Map<string, string[]>();
    for (const file of tsxFiles(UI)) for (const c of classNamesIn(readFileSync(file, 'utf8'))) users.set(c, [...(users.get(c) ?? []), relative(UI, file)]);
    const leaks: string[] = [];
    for (const [sheet, folders] of Object.entries(LAZY_SHEETS)) {
      for (const c of bareClasses(readFileSync(join(UI, sheet), 'utf8'))) {
        const outside = (users.get(c) ?? []).filter((f) => !folders.some((d) => f.startsWith(`${d}/`)));
        if (outside.length > 0) leaks.push(`.${c} of ${sheet} used by ${outside.join(', ')}`);
      }
    }
    expect(leaks).toEqual([]);
  });
});
