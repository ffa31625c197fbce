/**
 * Reading the page's URL into the app's state, forgivingly: a hand-edited
 * bad parameter is reported (naming the parameter and what it accepts) and
 * dropped, the rest is kept; if even that fails, the defaults are used. The
 * page never breaks on a URL.
 */
import { InputError, type InputIssue } from '../../core/validation';
import { decodeUrlState, DEFAULT_URL_STATE, encodeUrlState, type UrlState } from '../urlState';

/** development parameters the app keeps but the shareable state does not carry (`feed=sim`) */
export const DEV_PARAMS = ['feed'] as const;

/** what was wrong with a link, for the banner */
export interface UrlProblem {
  /** one sentence on what happened (which parameters were ignored, or that the defaults apply) */
  readonly summary: string;
  /** each bad parameter and what it accepts */
  readonly issues: readonly InputIssue[];
}

export interface ReadUrl {
  readonly state: UrlState;
  /** what was wrong with the URL (null: nothing) */
  readonly error: UrlProblem | null;
  /** the URL named a scenario (preset or inline) */
  readonly namedScenario: boolean;
  /** the development parameters, as a query fragment without `?` ('' = none) */
  readonly dev: string;
}

/** the parameter an issue path belongs to: `scenario.faults[0].atMs` → `scenario` */
export const paramOf = (path: string): string => path.split(/[.[:]/)[0] ?? '';

export function readUrl(search: string): ReadUrl {
  const all = new URLSearchParams(search.startsWith('?') ? search.slice(1) : search);
  const dev = new URLSearchParams();
  for (const p of DEV_PARAMS) {
    const v = all.get(p);
    if (v !== null) dev.set(p, v);
    all.delete(p);
  }
  const namedScenario = all.has('preset') || all.has('scenario');
  const base = { namedScenario, dev: dev.toString() };
  try {
    return { state: decodeUrlState(all.toString()), error: null, ...base };
  } catch (e) {
    const issues = e instanceof InputError ? e.issues : [{ path: '', message: e instanceof Error ? e.message : String(e) }];
    const bad = new Set(issues.map((i) => paramOf(i.path)));
    if (!bad.has('')) {
      const kept = new URLSearchParams([...all].filter(([k]) => !bad.has(k)));
      try {
        const state = decodeUrlState(kept.toString());
        const summary = `This link has ${issues.length === 1 ? 'a problem' : 'problems'}: ${[...bad].join(', ')} ${bad.size === 1 ? 'was' : 'were'} ignored, the rest of the link applies.`;
        return { state, error: { summary, issues }, ...base, namedScenario: kept.has('preset') || kept.has('scenario') };
      } catch {
        // fall through to the defaults
      }
    }
    return { state: DEFAULT_URL_STATE, error: { summary: 'This link could not be read: showing the defaults instead.', issues }, ...base, namedScenario: false };
  }
}

/** the search string for a state, with the development parameters kept */
export function writeUrl(state: UrlState, dev: string): string {
  const s = encodeUrlState(state);
  return dev ? `${s}&${dev}` : s;
}
