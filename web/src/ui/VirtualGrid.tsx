import { useCallback, useLayoutEffect, useRef, useState, type Key, type ReactNode } from 'react';

/**
 * A grid of cards that renders only the rows near the viewport: a board of 10,000 monitoring
 * points mounts a few dozen cards, not 10,000 (docs/performance.md "Device monitor"). Columns
 * fill the width as `repeat(auto-fill, minmax(minColumnWidth, 1fr))` would; rows may differ in
 * height: each rendered row is measured and the rows not yet seen take `estimateRowHeight`.
 * It scrolls with its nearest scrolling ancestor (the shell's content area), so the page keeps
 * one scroll bar and the toolbar above it scrolls away as before.
 */
export interface VirtualGridProps<T> {
  items: readonly T[];
  itemKey: (item: T) => Key;
  renderItem: (item: T) => ReactNode;
  minColumnWidth: number;
  gap: number;
  estimateRowHeight: number;
  /** Rows rendered beyond each edge of the viewport. */
  overscan?: number;
  className?: string;
}

function scrollParent(el: HTMLElement | null): HTMLElement | Window {
  for (let p = el?.parentElement; p; p = p.parentElement) {
    const o = getComputedStyle(p).overflowY;
    if (o === 'auto' || o === 'scroll') return p;
  }
  return window;
}

/** The first index whose cumulative top is past y (binary search over row tops). */
function rowAt(tops: number[], y: number): number {
  let lo = 0;
  let hi = tops.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (tops[mid] <= y) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function VirtualGrid<T>({ items, itemKey, renderItem, minColumnWidth, gap, estimateRowHeight, overscan = 3, className }: VirtualGridProps<T>) {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [view, setView] = useState({ top: 0, height: typeof window === 'undefined' ? 800 : window.innerHeight });
  // Measured heights by row index; reset when the number of columns changes the rows.
  const heights = useRef(new Map<number, number>());
  const [, remeasured] = useState(0);

  const columns = Math.max(1, Math.floor((width + gap) / (minColumnWidth + gap)));
  const rows = Math.ceil(items.length / columns);
  const columnsSeen = useRef(columns);
  if (columnsSeen.current !== columns) {
    columnsSeen.current = columns;
    heights.current.clear();
  }

  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const parent = scrollParent(el);
    const update = () => {
      const rect = el.getBoundingClientRect();
      const viewport = parent instanceof Window ? { top: 0, height: window.innerHeight } : parent.getBoundingClientRect();
      setWidth(el.clientWidth);
      // The part of the viewport below the grid's top edge, in grid coordinates.
      setView({ top: Math.max(0, viewport.top - rect.top), height: viewport.height });
    };
    update();
    const ro = new ResizeObserver(update);
    ro.observe(el);
    if (!(parent instanceof Window)) ro.observe(parent);
    parent.addEventListener('scroll', update, { passive: true });
    window.addEventListener('resize', update);
    return () => {
      ro.disconnect();
      parent.removeEventListener('scroll', update);
      window.removeEventListener('resize', update);
    };
  }, []);

  const tops: number[] = new Array(rows + 1);
  tops[0] = 0;
  for (let r = 0; r < rows; r++) tops[r + 1] = tops[r] + (heights.current.get(r) ?? estimateRowHeight) + gap;
  const first = Math.max(0, rowAt(tops, view.top) - overscan);
  const last = Math.min(rows - 1, rowAt(tops, view.top + view.height) + overscan);

  const measure = useCallback((row: number) => (el: HTMLDivElement | null) => {
    if (!el) return;
    const h = el.offsetHeight;
    if (heights.current.get(row) !== h) {
      heights.current.set(row, h);
      remeasured((n) => n + 1);
    }
  }, []);

  const rendered: ReactNode[] = [];
  for (let r = first; r <= last && rows > 0; r++) {
    const slice = items.slice(r * columns, (r + 1) * columns);
    rendered.push(
      <div
        key={r}
        ref={measure(r)}
        style={{ position: 'absolute', top: tops[r], left: 0, right: 0, display: 'grid', gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`, gap, alignItems: 'start' }}
      >
        {slice.map((item) => (
          <div key={itemKey(item)}>{renderItem(item)}</div>
        ))}
      </div>,
    );
  }
  return (
    <div ref={ref} className={className} style={{ position: 'relative', height: Math.max(0, tops[rows] - gap) }} data-rows={rows} data-columns={columns}>
      {rendered}
    </div>
  );
}
