/**
 * Reading the page's URL into the app's state, forgivingly: a hand-edited
 * bad parameter is reported (naming the parameter and what it accepts) and
 * dropped, the rest is kept; if even that fails, the defaults are used. The
 * page never breaks on a URL.
 */
import { InputError, type InputIssue } from '../../core/validation';
import { decodeUrlParts, DEFAULT_URL_STATE, encodeUrlState, type UrlState } from '../urlState';

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
    const { state, issues } = decodeUrlParts(all.toString());
    if (issues.length === 0) return { state, error: null, ...base };
    const bad = [...new Set(issues.map((i) => paramOf(i.path)))];
    const missing = issues.filter((i) => i.message.startsWith('missing')).map((i) => paramOf(i.path));
    // a repeated parameter is not ignored: its first value applies (rawParams)
    const repeated = issues.filter((i) => i.message.startsWith('given more than once')).map((i) => paramOf(i.path));
    const ignored = bad.filter((p) => !missing.includes(p) && !repeated.includes(p));
    const parts = [
      ...(repeated.length > 0 ? [`${repeated.join(', ')} ${repeated.length === 1 ? 'was' : 'were'} given more than once (the first value applies)`] : []),
      ...(ignored.length > 0 ? [`${ignored.join(', ')} ${ignored.length === 1 ? 'was' : 'were'} ignored`] : []),
      ...(missing.length > 0 ? [`${missing.join(', ')} ${missing.length === 1 ? 'was' : 'were'} missing`] : []),
    ];
    const summary = `This link has ${issues.length === 1 ? 'a problem' : 'problems'}: ${parts.join('; ')}, the rest of the link applies.`;
    const named = 'preset' in state.scenario ? all.has('preset') && !bad.includes('preset') : true;
    return { state, error: { summary, issues }, ...base, namedScenario: named };
  } catch (e) {
    const issues = e instanceof InputError ? e.issues : [{ path: '', message: e instanceof Error ? e.message : String(e) }];
    return { state: DEFAULT_URL_STATE, error: { summary: 'This link could not be read: showing the defaults instead.', issues }, ...base, namedScenario: false };
  }
}

/** the search string for a state, with the development parameters kept */
export function writeUrl(state: UrlState, dev: string): string {
  const s = encodeUrlState(state);
  return dev ? `${s}&${dev}` : s;
}
