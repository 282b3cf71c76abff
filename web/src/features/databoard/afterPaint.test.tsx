// @vitest-environment jsdom
/**
 * The board's organisation tree and pager mount after its first content is painted
 * (SceneFilterTree.tsx useAfterPaint): not while the content is still coming, and on the frame
 * after it came.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import { useAfterPaint } from './SceneFilterTree';

afterEach(cleanup);

describe('useAfterPaint', () => {
  it('stays false while the content is not there, and turns true once it has been painted', async () => {
    const { result, rerender } = renderHook(({ ready }) => useAfterPaint(ready), { initialProps: { ready: false } });
    await new Promise((r) => setTimeout(r, 50));
    expect(result.current).toBe(false);
    rerender({ ready: true });
    // Not in the render that brings the content: after its frame.
    expect(result.current).toBe(false);
    await waitFor(() => expect(result.current).toBe(true));
    // Once true it stays, whatever the content does next (a refetch, an empty page).
    rerender({ ready: false });
    expect(result.current).toBe(true);
  });
});
