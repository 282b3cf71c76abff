import { useMemo, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, Empty, Input, Spin, Tree } from 'antd';
import type { DataNode, TreeProps } from 'antd/es/tree';
import { BankOutlined, ClusterOutlined, ContainerOutlined } from '@ant-design/icons';
import { funcTypeIcon } from './funcTypes';
import { SCENE_FUNC, sceneRefs, type TreeNode } from '@coldwatch/contract';
import { useCall } from '../api/hooks';
import { useAuth } from '../app/auth';
import { errorMessage } from '../app/errors';
import { SCENE_TREE_KEY } from './sceneTreeKey';

/** A node of the organisation (scene) tree, as the contract's sceneApi.tree answers it. */
export type SceneNode = TreeNode;
export { SCENE_TREE_KEY };

/** Code of the root that stands for "everything the user may see". */
export const ALL_NODE = 'all_node';

/** Wraps the server's answer under one root `all_node` (spec §4: root 'all_node' labelled 'All'). */
export function withRoot(list: SceneNode[] | undefined, allLabel: string): SceneNode {
  const nodes = list ?? [];
  if (nodes.length === 1 && nodes[0].code === ALL_NODE) return { ...nodes[0], label: allLabel };
  return { code: ALL_NODE, label: allLabel, nodeType: 'all', scene_id: null, scope_id: null, funcType: null, lng: null, lat: null, children: nodes };
}

/**
 * The scene tree of the signed-in user (spec §4: requested with all=true for user type 2 or 3).
 * Cached; the login guard reloads it after login and on the `#refreshTree` hash.
 */
export function useSceneTree(opts: { withCarrier?: boolean } = {}) {
  const { userType, loggedIn } = useAuth();
  const all = userType === 2 || userType === 3;
  const withCarrier = !!opts.withCarrier;
  return useCall(sceneRefs.tree, { query: { all: all ? 'true' : undefined, withCarrier: withCarrier ? 'true' : undefined } }, { enabled: loggedIn, staleTime: 5 * 60_000 });
}

/** A TreeSelect entry of a scene picker: scenes selectable (value = scene id), customers as headings, carriers left out. */
export interface SceneOption {
  value: string;
  title: string;
  selectable: boolean;
  children: SceneOption[];
}

export function sceneOption(n: SceneNode): SceneOption {
  return {
    value: n.nodeType === 'scene' ? String(n.scene_id) : n.code,
    title: n.label,
    selectable: n.nodeType === 'scene',
    children: n.children.filter((c) => c.nodeType !== 'carrier').map(sceneOption),
  };
}

/** Finds a node by code. */
export function findNode(root: SceneNode | undefined, code: string): SceneNode | undefined {
  if (!root) return undefined;
  if (root.code === code) return root;
  for (const c of root.children ?? []) {
    const f = findNode(c, code);
    if (f) return f;
  }
  return undefined;
}

const icon = (n: SceneNode): ReactNode => {
  if (n.code === ALL_NODE || n.nodeType === 'all') return <ClusterOutlined />;
  if (n.nodeType === 'customer') return <BankOutlined />;
  if (n.nodeType === 'carrier' || n.carrierId) return <ContainerOutlined />;
  return funcTypeIcon(n.funcType);
};

/** Tree data with only the nodes matching `q` (and their ancestors); `parents` maps a code to its parent node. */
function toData(n: SceneNode, q: string, nodes: Map<string, SceneNode>, parents: Map<string, SceneNode>): DataNode | undefined {
  nodes.set(n.code, n);
  for (const c of n.children ?? []) parents.set(c.code, n);
  const kids = (n.children ?? []).map((c) => toData(c, q, nodes, parents)).filter((c): c is DataNode => !!c);
  const hit = !q || n.label.toLowerCase().includes(q);
  if (!hit && kids.length === 0) return undefined;
  return { key: n.code, title: n.label, icon: icon(n), children: kids.length ? kids : undefined, isLeaf: !n.children?.length };
}

function keysOf(d: DataNode | undefined, depth: number, out: string[] = []): string[] {
  if (!d || depth < 0) return out;
  out.push(String(d.key));
  for (const c of d.children ?? []) keysOf(c, depth - 1, out);
  return out;
}

export interface OrgTreeProps {
  /** Called with the selected node; the root (`code === 'all_node'`) means "no filter". */
  onSelect?: (node: SceneNode) => void;
  /** Controlled selection (scene code). */
  selectedKey?: string;
  /** Uncontrolled initial selection; default none. */
  defaultSelectedKey?: string;
  /** Show the filter box (default true). */
  searchable?: boolean;
  /** Fixed height in px: turns on virtual scrolling for big trees. */
  height?: number;
  /** Also list carriers as leaves (nodeType 'carrier', carrierId set). */
  withCarrier?: boolean;
  /**
   * Drag and drop of scene nodes: `onMove` gets the node, its new parent (a scene, or the
   * customer node for the top level) and its position among the parent's other children.
   */
  onMove?: (m: SceneMove) => void;
  style?: CSSProperties;
  className?: string;
}

export interface SceneMove {
  node: SceneNode;
  parent: SceneNode;
  index: number;
}

/** The organisation tree of spec §2: node key = scene code; data from /service/share/tree. */
export function OrgTree({ onSelect, selectedKey, defaultSelectedKey, searchable = true, height, withCarrier, onMove, style, className }: OrgTreeProps) {
  const { t } = useTranslation();
  const tree = useSceneTree({ withCarrier });
  const [q, setQ] = useState('');
  const [own, setOwn] = useState<string | undefined>(defaultSelectedKey);
  const [expanded, setExpanded] = useState<string[] | undefined>();
  const selected = selectedKey ?? own;

  const { data, nodes, parents, root } = useMemo(() => {
    const nodes = new Map<string, SceneNode>();
    const parents = new Map<string, SceneNode>();
    const root = tree.data === undefined ? undefined : withRoot(tree.data, t('common:tree.all'));
    const data = root ? toData(root, q.trim().toLowerCase(), nodes, parents) : undefined;
    return { data, nodes, parents, root };
  }, [tree.data, q, t]);

  const drop: TreeProps['onDrop'] = (info) => {
    const node = nodes.get(String(info.dragNode.key));
    const target = nodes.get(String(info.node.key));
    if (!node || !target || !onMove) return;
    const siblingsOf = (p: SceneNode) => p.children.filter((c) => c.nodeType === 'scene' && c.code !== node.code);
    if (!info.dropToGap) {
      onMove({ node, parent: target, index: 0 });
      return;
    }
    const parent = parents.get(target.code);
    if (!parent) return;
    // antd's dropPosition is relative to the target's position: -1 before it, 1 after it.
    const pos = String(info.node.pos).split('-');
    const after = info.dropPosition - Number(pos[pos.length - 1]) > 0;
    const at = siblingsOf(parent).findIndex((c) => c.code === target.code);
    onMove({ node, parent, index: Math.max(0, at + (after ? 1 : 0)) });
  };

  // While filtering every match is shown open; otherwise the root and first level start open.
  const expandedKeys = q.trim() ? keysOf(data, 64) : (expanded ?? keysOf(data, 1));

  return (
    <div className={className} style={{ display: 'flex', flexDirection: 'column', gap: 8, minHeight: 0, ...style }}>
      {searchable && <Input.Search allowClear placeholder={t('common:tree.search')} onChange={(e) => setQ(e.target.value)} onSearch={setQ} />}
      {tree.isPending && tree.fetchStatus !== 'idle' ? (
        <Spin style={{ padding: 24 }} />
      ) : tree.isError ? (
        <Alert
          type="error"
          showIcon
          title={errorMessage(tree.error, t)}
          action={
            <Button size="small" onClick={() => tree.refetch()}>
              {t('common:action.retry')}
            </Button>
          }
        />
      ) : !data || !root ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common:empty')} />
      ) : (
        <Tree
          showIcon
          blockNode
          height={height}
          treeData={[data]}
          expandedKeys={expandedKeys}
          onExpand={(keys) => setExpanded(keys.map(String))}
          selectedKeys={selected ? [selected] : []}
          draggable={onMove ? { icon: false, nodeDraggable: (d) => nodes.get(String(d.key))?.nodeType === 'scene' } : false}
          allowDrop={({ dropNode, dropPosition }) => {
            const target = nodes.get(String(dropNode.key));
            // Inside: a customer node or an organisation, map or menu node (a floor plan takes no children); beside: a scene.
            if (dropPosition === 0) return target?.nodeType === 'customer' || (target?.nodeType === 'scene' && target.funcType !== SCENE_FUNC.floorPlan);
            return target?.nodeType === 'scene';
          }}
          onDrop={drop}
          onSelect={(keys) => {
            const code = keys.length ? String(keys[0]) : selected;
            if (!code) return;
            setOwn(code);
            const node = nodes.get(code) ?? findNode(root, code);
            if (node) onSelect?.(node);
          }}
        />
      )}
    </div>
  );
}
