import { useMemo, useState } from 'react';
import { Button, Empty, Space, Spin, Tree, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { allKeys, buildPermTree, fromCheckedKeys, funcVerb, type PermNode, type PermTreeNode } from './permissionTree';
import { useMenuTitle } from './shared';

/** GET /service/role/permissionTree: the entries and function codes the caller may delegate. */
export function usePermissionTree() {
  return useCall(roleApi.permissionTree, undefined, { staleTime: 60_000 });
}

/** Titles of the tree: entries from the menu catalogue, functions as their verb (with their object under "other"). */
export function usePermTreeData(nodes: PermNode[] | undefined): PermTreeNode[] {
  const { t } = useTranslation('account');
  const menuTitle = useMenuTitle();
  return useMemo(() => {
    const funcTitle = (code: string, entry: PermNode) => {
      if (code === 'viewMonitorPointRealTime') return t('perm.realTime');
      if (code === 'viewDetailData') return t('perm.detailData');
      const verb = funcVerb(code);
      if (!verb) return code;
      const obj = code.slice(verb.length);
      const v = t(`perm.${verb}`);
      // Under an entry of another object, or under "other", name the object too.
      return entry.id === 0 || !entry.funcs.every((f) => f.endsWith(obj) || f === 'viewMonitorPointRealTime') ? `${v} · ${t(`obj.${obj}`, { defaultValue: obj })}` : v;
    };
    return buildPermTree(nodes ?? [], (n) => menuTitle(n.code, n.name), funcTitle);
  }, [nodes, t, menuTitle]);
}

interface Props {
  tree: PermTreeNode[];
  loading?: boolean;
  error?: unknown;
  value?: string[];
  onChange?: (keys: string[]) => void;
  height?: number;
}

/** The checkable permission tree (operable resources with their view/new/edit/remove functions). */
export function PermissionTree({ tree, loading, error, value, onChange, height = 340 }: Props) {
  const { t } = useTranslation('account');
  const [expanded, setExpanded] = useState<string[] | null>(null);
  const keys = useMemo(() => allKeys(tree), [tree]);
  const topKeys = useMemo(() => tree.map((n) => n.key), [tree]);
  const summary = useMemo(() => fromCheckedKeys(tree, value ?? []), [tree, value]);
  if (loading) return <Spin size="small" />;
  if (error) return <Typography.Text type="danger">{errorMessage(error, t)}</Typography.Text>;
  if (!tree.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return (
    <div style={{ border: '1px solid #f0f0f0', borderRadius: 6, padding: '6px 8px' }}>
      <Space size={4} style={{ marginBottom: 4, width: '100%', justifyContent: 'space-between' }} wrap>
        <Space size={0}>
          <Button type="link" size="small" onClick={() => setExpanded(keys)}>
            {t('role.form.expandAll')}
          </Button>
          <Button type="link" size="small" onClick={() => setExpanded(topKeys)}>
            {t('role.form.collapseAll')}
          </Button>
          <Button type="link" size="small" onClick={() => onChange?.(keys)}>
            {t('role.form.checkAll')}
          </Button>
          <Button type="link" size="small" onClick={() => onChange?.([])}>
            {t('role.form.uncheckAll')}
          </Button>
        </Space>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('role.form.selected', { menus: summary.resourceIds.length, funcs: summary.funcs.length })}
        </Typography.Text>
      </Space>
      <Tree
        checkable
        selectable={false}
        blockNode
        height={height}
        treeData={tree}
        checkedKeys={value ?? []}
        expandedKeys={expanded ?? topKeys}
        onExpand={(k) => setExpanded(k as string[])}
        onCheck={(checked) => onChange?.((Array.isArray(checked) ? checked : checked.checked) as string[])}
      />
    </div>
  );
}
