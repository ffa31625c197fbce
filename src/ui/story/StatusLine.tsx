/** One line under the header: what you are seeing now (idle / running healthy / fault / recovering / storm / paused). */
import { useMemo } from 'react';
import { sessionLineOf } from '../store/serviceSelectors';
import { useStoryState } from './useStoryState';

/** `replayCursorMs`: Replay's cursor (the line says what the run shows there); absent on Live */
export function StatusLine({ replayCursorMs }: { readonly replayCursorMs?: number } = {}) {
  const st = useStoryState();
  const line = useMemo(() => sessionLineOf(st, replayCursorMs), [st, replayCursorMs]);
  return (
    <p className={`status-line state-${line.state}`} role="status" aria-label="What you are seeing" data-state={line.state}>
      <b className="status-state">{line.label}</b> <span className="status-text">{line.text}</span>
    </p>
  );
}
