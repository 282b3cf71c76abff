import { useEffect, useState } from 'react';
import { OrgTree, ALL_NODE, type SceneNode } from '../../ui/OrgTree';

/** What a node of the organisation tree filters the board by: a scene (and its subtree) or a customer. */
export interface SceneSelection {
  code?: string;
  sceneId?: number;
  customerId?: number;
}

/** Maps a tree node to the monitor list's filter: root = everything, customer node = its carriers, scene = its subtree. */
export function selectionOf(node: SceneNode): SceneSelection {
  if (node.code === ALL_NODE) return {};
  if (node.scene_id) return { code: node.code, sceneId: Number(node.scene_id) };
  if (node.scope_id) return { code: node.code, customerId: Number(node.scope_id) };
  return { code: node.code };
}

export function SceneFilterTree({ value, onChange }: { value: SceneSelection; onChange: (s: SceneSelection) => void }) {
  return <OrgTree selectedKey={value.code ?? ALL_NODE} onSelect={(n) => onChange(selectionOf(n))} />;
}

/**
 * True from the frame after `ready` was first true: a part of the page that is not its first
 * content (the board's organisation tree, its pager) mounts once the first content has been
 * painted, so that it does not hold that paint up (docs/performance.md "Device monitor").
 */
export function useAfterPaint(ready: boolean): boolean {
  const [after, setAfter] = useState(false);
  useEffect(() => {
    if (!ready || after) return;
    // The frame is painted after rAF's callbacks; a task queued from one runs after that paint.
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setAfter(true))));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [ready, after]);
  return after;
}
