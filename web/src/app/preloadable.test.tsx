import { lazy, Suspense } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { preloadable } from './preloadable';

const Hello = ({ who }: { who: string }) => <b>hello {who}</b>;
const loader = () => Promise.resolve({ default: Hello });
const html = (node: React.ReactNode) => renderToString(<Suspense fallback={<i>waiting</i>}>{node}</Suspense>);

describe('preloadable', () => {
  it('renders at once, without its fallback, once its module has arrived', async () => {
    const C = preloadable(loader);
    expect(html(<C who="board" />)).toContain('waiting');
    await C.preload();
    expect(html(<C who="board" />)).toMatch(/hello.*board/);
  });

  it('where React.lazy would still suspend on its first render (the 300 ms reveal throttle it avoids)', async () => {
    const arrived = loader();
    await arrived;
    const L = lazy(() => arrived);
    expect(html(<L who="board" />)).toContain('waiting');
  });

  it('gives the preload a failed chunk quietly and leaves the error to the render', async () => {
    const C = preloadable<object>(() => Promise.reject(new Error('chunk 404')));
    await expect(C.preload()).resolves.toBeUndefined();
    expect(html(<C />)).toContain('waiting');
  });
});
