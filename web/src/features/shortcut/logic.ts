/**
 * The chosen shortcuts after the tree's check state changed: entries still checked keep their
 * order, newly checked ones are added at the end in tree order, at most `max`.
 */
export function nextChosen(current: readonly number[], checked: readonly number[], treeOrder: readonly number[], max: number): number[] {
  const on = new Set(checked);
  const kept = current.filter((id) => on.has(id));
  const added = treeOrder.filter((id) => on.has(id) && !kept.includes(id));
  return [...kept, ...added].slice(0, max);
}
