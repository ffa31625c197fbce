/**
 * A lazily loaded view that can be fetched ahead of its first render. Why not
 * plain `React.lazy` for the view a link opens: the first render would show
 * the Suspense fallback, and React holds back the content that replaces a
 * fallback for at least 300 ms — on a page whose work takes about a second,
 * a third of it spent waiting. Preloaded before the first render, the view
 * renders at once; not preloaded (a tab opened later), it suspends as before.
 */
import { createElement, lazy, useState, type ComponentType } from 'react';

export interface LazyView<P extends object> {
  readonly View: ComponentType<P>;
  /** fetches the view's code (once); resolves when it can render without suspending */
  preload(): Promise<void>;
}

export function lazyView<P extends object>(load: () => Promise<{ readonly default: ComponentType<P> }>): LazyView<P> {
  let loaded: ComponentType<P> | null = null;
  let pending: Promise<ComponentType<P>> | null = null;
  const get = (): Promise<ComponentType<P>> =>
    (pending ??= load().then((m) => {
      loaded = m.default;
      return m.default;
    }));
  const Suspending = lazy(async () => ({ default: await get() }));
  function View(props: P) {
    // chosen once per mount: switching from the lazy wrapper to the loaded component would remount the view
    const [C] = useState<ComponentType<P>>(() => loaded ?? Suspending);
    return createElement(C, props);
  }
  return { View, preload: () => get().then(() => undefined) };
}
