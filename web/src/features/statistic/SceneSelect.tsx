import { TreeSelect } from 'antd';
import { useSceneTree, type SceneNode } from '../../ui';

interface SceneOptionNode {
  value: number;
  title: string;
  children: SceneOptionNode[];
}
/** Scene nodes as TreeSelect data (value: scene id). */
const sceneData = (nodes: SceneNode[]): SceneOptionNode[] =>
  nodes.filter((n) => n.nodeType === 'scene' && n.scene_id !== null).map((n) => ({ value: n.scene_id as number, title: n.label, children: sceneData(n.children ?? []) }));

/** An organisation node of the caller's scene tree (its scenes only), by scene id: the statistics' and the data report's filter. */
export function SceneSelect({ value, onChange, placeholder }: { value: number | undefined; onChange: (id: number | undefined) => void; placeholder: string }) {
  const tree = useSceneTree();
  return (
    <TreeSelect
      style={{ width: 220 }}
      value={value}
      onChange={onChange}
      treeData={sceneData(tree.data ?? [])}
      placeholder={placeholder}
      allowClear
      treeDefaultExpandAll
      showSearch={{ treeNodeFilterProp: 'title' }}
      data-testid="scene-select"
    />
  );
}
