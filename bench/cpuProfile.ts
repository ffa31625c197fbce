/**
 * Where the page's main thread spends its time: a V8 CPU profile (CDP
 * Profiler) of the running dashboard, each sample's position in the minified
 * bundle mapped back through the build's source map (dist/assets/*.js.map) to
 * the package or source folder it came from, and self time summed per group.
 * A small source-map reader is inlined (base64 VLQ): no extra dependency.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { CDPSession } from 'playwright-core';

const B64 = new Map([...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].map((c, i) => [c, i]));

/** generated line → sorted [column, source index] pairs */
class SourceMapLookup {
  private readonly lines: Int32Array[] = [];

  constructor(
    private readonly sources: readonly string[],
    mappings: string,
  ) {
    let src = 0;
    let line: number[] = [];
    let col = 0;
    let field = 0;
    let value = 0;
    let shift = 0;
    let segCol = 0;
    const endSegment = () => {
      field = 0;
    };
    for (let i = 0; i <= mappings.length; i++) {
      const ch = i < mappings.length ? mappings[i] : ';';
      if (ch === ';' || ch === ',') {
        endSegment();
        if (ch === ';') {
          this.lines.push(Int32Array.from(line));
          line = [];
          col = 0;
        }
        continue;
      }
      const digit = B64.get(ch as string) ?? 0;
      value += (digit & 31) << shift;
      if (digit & 32) {
        shift += 5;
        continue;
      }
      const v = value & 1 ? -(value >>> 1) : value >>> 1;
      value = 0;
      shift = 0;
      if (field === 0) {
        col += v;
        segCol = col;
      } else if (field === 1) {
        src += v;
        line.push(segCol, src);
      }
      field++;
    }
  }

  /** the source file of a generated position (0-based), or null */
  sourceAt(line: number, column: number): string | null {
    const l = this.lines[line];
    if (l === undefined || l.length === 0) return null;
    let lo = 0;
    let hi = l.length / 2 - 1;
    if ((l[0] as number) > column) return null;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((l[mid * 2] as number) <= column) lo = mid;
      else hi = mid - 1;
    }
    return this.sources[l[lo * 2 + 1] as number] ?? null;
  }
}

/** a source path → a group: a package name, or a project folder like src/ui/store */
export function groupOf(source: string): string {
  const nm = source.lastIndexOf('node_modules/');
  if (nm >= 0) {
    const rest = source.slice(nm + 'node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? source);
  }
  const parts = source.replace(/^(\.\.\/)+/, '').split('/');
  const i = parts.indexOf('src');
  return i >= 0 ? parts.slice(i, i + 3).join('/') : parts.slice(0, 2).join('/');
}

/** a source-map lookup over the built assets in `distDir`: (script url, line, column) → source path or null */
export function SourceMapLookupFor(distDir: string): (url: string, line: number, column: number) => string | null {
  const mapOf = sourceMapsIn(distDir);
  return (url, line, column) => mapOf(url)?.sourceAt(line, column) ?? null;
}

/** the source map of a built asset by script url (null when it has none), each file read once */
function sourceMapsIn(distDir: string): (url: string) => SourceMapLookup | null {
  const maps = new Map<string, SourceMapLookup | null>();
  return (url) => {
    const file = basename(new URL(url, 'http://x/').pathname);
    if (!maps.has(file)) {
      const path = join(distDir, 'assets', `${file}.map`);
      if (existsSync(path)) {
        const m = JSON.parse(readFileSync(path, 'utf8')) as { sources: string[]; mappings: string };
        maps.set(file, new SourceMapLookup(m.sources, m.mappings));
      } else maps.set(file, null);
    }
    return maps.get(file) ?? null;
  };
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number; readonly columnNumber: number };
}

export interface ProfileGroup {
  readonly group: string;
  readonly ms: number;
  /** of the samples that were not idle, % */
  readonly pct: number;
}

export interface ProfileSummary {
  readonly seconds: number;
  /** samples that were not (idle), % of the profile's duration */
  readonly busyPct: number;
  readonly groups: readonly ProfileGroup[];
}

/** profiles the page's main thread for `seconds` and groups self time by package / source folder */
export async function profileMainThread(cdp: CDPSession, seconds: number, distDir = 'dist'): Promise<ProfileSummary> {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
  await cdp.send('Profiler.start');
  await new Promise((r) => setTimeout(r, seconds * 1000));
  const { profile } = await cdp.send('Profiler.stop');
  await cdp.send('Profiler.disable');

  const lookup = sourceMapsIn(distDir);

  const nodes = new Map<number, ProfileNode>((profile.nodes as ProfileNode[]).map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++) {
    const id = samples[i] as number;
    const dt = (deltas[i + 1] ?? deltas[i] ?? 0) / 1000;
    self.set(id, (self.get(id) ?? 0) + dt);
  }
  const groups = new Map<string, number>();
  let idle = 0;
  let total = 0;
  for (const [id, ms] of self) {
    const f = nodes.get(id)?.callFrame;
    total += ms;
    let g: string;
    if (f === undefined) g = '(unknown)';
    else if (f.functionName === '(idle)') {
      idle += ms;
      continue;
    } else if (f.url === '') g = f.functionName === '(program)' ? '(program: native browser work — style, layout, paint, messaging)' : f.functionName || '(native)';
    else {
      const src = lookup(f.url)?.sourceAt(f.lineNumber, f.columnNumber);
      g = src ? groupOf(src) : basename(new URL(f.url, 'http://x/').pathname);
    }
    groups.set(g, (groups.get(g) ?? 0) + ms);
  }
  const busy = total - idle;
  return {
    seconds: total / 1000,
    busyPct: total > 0 ? (100 * busy) / total : 0,
    groups: [...groups.entries()].map(([group, ms]) => ({ group, ms, pct: busy > 0 ? (100 * ms) / busy : 0 })).sort((a, b) => b.ms - a.ms),
  };
}
