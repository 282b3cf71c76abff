import { lazy, useState, type ComponentType } from 'react';

/** Spec §9: a page chunk that does not arrive within 120 s fails (the shell offers a retry). */
const CHUNK_TIMEOUT_MS = 120_000;

function withTimeout<T>(p: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('chunk timeout')), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

/** A lazily loaded component that can be asked to start downloading before it renders (preload.ts). */
export type Preloadable<P extends object = object> = ComponentType<P> & { preload(): Promise<unknown> };

/**
 * React.lazy, except that once its module has arrived the component renders at once. A lazy
 * component suspends on its first render even when its chunk is already loaded (its promise
 * settles a microtask later), and React 19 then holds the revealed content until 300 ms after
 * the last fallback it showed (FALLBACK_THROTTLE_MS). The guard, the page gate and the page each
 * did so in turn, so a page opened directly showed its spinner 0.3 s or more after everything
 * it needed was there (docs/performance.md, "Device monitor"). Preloaded, nothing suspends.
 */
export function preloadable<P extends object = object>(loader: () => Promise<{ default: ComponentType<P> }>): Preloadable<P> {
  let loaded: ComponentType<P> | undefined;
  let loading: Promise<{ default: ComponentType<P> }> | undefined;
  // One download however often it is asked for (each hover of a menu entry asks); a failed one
  // is forgotten, so that the next ask, or the render, tries again.
  const load = () =>
    (loading ??= loader().then(
      (m) => {
        loaded = m.default;
        return m;
      },
      (e: unknown) => {
        loading = undefined;
        throw e;
      },
    ));
  const Lazy = lazy(() => withTimeout(load(), CHUNK_TIMEOUT_MS));
  const Component = (props: P) => {
    // Chosen once per mount: switching from Lazy to the loaded component later would remount it.
    const [Chosen] = useState<ComponentType<P>>(() => loaded ?? (Lazy as unknown as ComponentType<P>));
    return <Chosen {...props} />;
  };
  return Object.assign(Component, { preload: () => load().catch(() => undefined) });
}
