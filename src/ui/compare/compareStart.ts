/**
 * The page's one compare runner, and the early start: when the link opens
 * Compare, both runs start at page load — before the view's code has loaded
 * or rendered — so the workers fetch, compile and run while the page draws.
 * The view takes the same runner and asks for the same runs, which runs
 * nothing twice (`CompareRunner.run`).
 */
import { CompareSession } from '../bridge/compareSession';
import type { UrlState } from '../urlState';
import { compareRequest } from './compareRequest';
import { CompareRunner } from './compareRunner';
import { pairOf } from './pairs';

let runner: CompareRunner | null = null;

export function pageCompareRunner(): CompareRunner {
  return (runner ??= new CompareRunner((onError) => new CompareSession(onError)));
}

/** starts the runs a Compare link asks for (a link that does not load starts nothing: the view names the error) */
export function startCompareEarly(part: UrlState): void {
  const req = compareRequest(part);
  if (req.scenario !== null) void pageCompareRunner().run(req.scenario, pairOf(req.scenario, req.pair));
}
