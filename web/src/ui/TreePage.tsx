import type { ReactNode } from 'react';
import './tree-page.css';

/**
 * A page with the organisation tree on the left and its content beside it (spec §2: the tree
 * filters the page beside it). Below 900 px the tree sits above the content, short and scrolling.
 */
export function TreePage({ tree, children }: { tree: ReactNode; children: ReactNode }) {
  return (
    <div className="cw-tree-page">
      <aside className="cw-tree-page-tree">{tree}</aside>
      <div className="cw-tree-page-main">{children}</div>
    </div>
  );
}
