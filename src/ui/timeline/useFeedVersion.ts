import { useCallback, useSyncExternalStore } from 'react';
import type { TimelineFeed } from './timelineFeed';

/** the feed's version; change notifications are taken up at most once per animation frame */
export function useFeedVersion(feed: TimelineFeed): number {
  const subscribe = useCallback(
    (onChange: () => void) => {
      let raf = 0;
      const off = feed.subscribe(() => {
        if (raf === 0)
          raf = requestAnimationFrame(() => {
            raf = 0;
            onChange();
          });
      });
      return () => {
        off();
        cancelAnimationFrame(raf);
      };
    },
    [feed],
  );
  return useSyncExternalStore(subscribe, () => feed.version);
}
