export { OrgTree, useSceneTree, withRoot, findNode, ALL_NODE, SCENE_TREE_KEY } from './OrgTree';
export type { OrgTreeProps, SceneNode } from './OrgTree';
export { PagedTable } from './PagedTable';
export type { FiltersOf, PagedRoute, PagedTableProps, PagedTableRef, PagedResult, RowOf } from './PagedTable';
export { SearchBar, toSearchValues, useRangePresets } from './SearchBar';
export type { SearchBarProps, SearchField, SearchValues } from './SearchBar';
export { useApiErrorToast } from './useApiErrorToast';
export { LogoMark } from './Logo';
export { PageCard } from './PageCard';
