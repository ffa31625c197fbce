import { Suspense, type ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { lazyView } from './lazyView';

function Hello({ name }: { name: string }) {
  return <b>hello {name}</b>;
}

const page = (View: ComponentType<{ name: string }>) =>
  renderToString(
    <Suspense fallback={<i>loading</i>}>
      <View name="x" />
    </Suspense>,
  );

describe('lazyView', () => {
  it('renders a preloaded view at once, without the Suspense fallback', async () => {
    let loads = 0;
    const v = lazyView(async () => (loads++, { default: Hello }));
    await v.preload();
    await v.preload();
    const html = page(v.View);
    expect(html).toContain('<b>hello <!-- -->x</b>');
    expect(html).not.toContain('loading');
    expect(loads).toBe(1);
  });

  it('suspends (shows the fallback) while the code is not there yet', () => {
    const v = lazyView<{ name: string }>(() => new Promise(() => {}));
    expect(page(v.View)).toContain('<i>loading</i>');
  });
});
