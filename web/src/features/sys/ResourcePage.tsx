/**
 * /sys/resource: the menu resources of spec §3 (root only, spec §6): the whole menu tree with
 * code, route, icon, visibility, function object and access level; add (top level or under
 * an entry), edit and delete (with its sub-entries).
 */
import { useMemo, useState } from 'react';
import { App, Button, Result, Space, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { resourceApi } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { errorMessage } from '../../app/errors';
import { AddButton, linkActionsColumn, PageCard } from '../../ui';
import { useMenuTitle } from '../account/shared';
import { ResourceDialog } from './ResourceDialog';
import { forTable, type ResourceNode } from './resourceTypes';

const ROOT_USER_ID = 1;

export default function ResourcePage() {
  const { t } = useTranslation('resource');
  const { user, can } = useAuth();
  const { modal } = App.useApp();
  const menuTitle = useMenuTitle();
  const isRoot = user?.id === ROOT_USER_ID;
  const [editing, setEditing] = useState<{ node?: ResourceNode; parentId: number | null } | null>(null);
  const [expanded, setExpanded] = useState<number[] | null>(null);

  const answer = useCall(resourceApi.tree, undefined, { enabled: isRoot });
  const tree = { ...answer, data: useMemo(() => (answer.data ? forTable(answer.data) : undefined), [answer.data]) };
  const del = useAction(resourceApi.del, { success: t('msg.deleted'), onDone: () => void answer.refetch() });
  const allIds = useMemo(() => {
    const out: number[] = [];
    const walk = (ns: ResourceNode[]) => ns.forEach((n) => n.children?.length && (out.push(n.id), walk(n.children)));
    walk(tree.data ?? []);
    return out;
  }, [tree.data]);

  if (!isRoot) return <Result status="403" title="403" subTitle={t('rootOnly')} />;

  const remove = (n: ResourceNode) =>
    modal.confirm({
      title: t('confirm.deleteTitle', { name: menuTitle(n.code, n.name) }),
      content: t('confirm.deleteText'),
      okText: t('confirm.ok'),
      okButtonProps: { danger: true },
      cancelText: t('confirm.cancel'),
      onOk: () => del.run({ query: { ids: idList([n.id]) } }),
    });

  const columns: ColumnsType<ResourceNode> = [
    {
      title: t('col.name'),
      dataIndex: 'name',
      width: 330,
      render: (_: string, n) => (
        <span style={{ whiteSpace: 'nowrap' }}>
          <span>{menuTitle(n.code, n.name)}</span>
          <Typography.Text type="secondary" style={{ fontSize: 12, fontFamily: 'ui-monospace, monospace', marginInlineStart: 6 }}>
            {n.code}
          </Typography.Text>
        </span>
      ),
    },
    { title: t('col.url'), dataIndex: 'url', width: 240, ellipsis: true, render: (v: string) => <span style={{ fontFamily: 'ui-monospace, monospace', fontSize: 12 }}>{v || '--'}</span> },
    { title: t('col.icon'), dataIndex: 'icon', width: 100, render: (v: string) => v || '--' },
    {
      title: t('col.funcObject'),
      dataIndex: 'funcObject',
      width: 130,
      render: (v: string | null, n) =>
        v ? (
          <Tooltip title={n.funcCodes.join(', ')}>
            <Tag color="blue">{v}</Tag>
          </Tooltip>
        ) : (
          '--'
        ),
    },
    { title: t('col.visible'), dataIndex: 'visible', width: 120, render: (v: string) => <Tag color={v === 'all' ? undefined : v === 'admin' ? 'orange' : 'purple'}>{t(`visible.${v}`, { defaultValue: v })}</Tag> },
    {
      title: t('col.accessLevel'),
      dataIndex: 'accessLevel',
      width: 110,
      render: (v: number) => (
        <Tooltip title={t(`accessLevel.${v}`)}>
          <Tag color={['default', 'blue', 'cyan', 'purple', 'red'][v]}>{v}</Tag>
        </Tooltip>
      ),
    },
    {
      title: t('col.flags'),
      key: 'flags',
      width: 170,
      render: (_, n) => (
        <Space size={2}>
          {n.hidden && <Tag style={{ marginInlineEnd: 0 }}>{t('flag.hidden')}</Tag>}
          {!n.enabled && <Tag color="red" style={{ marginInlineEnd: 0 }}>{t('flag.disabled')}</Tag>}
          {n.builtin && <Tag color="geekblue" variant="outlined" style={{ marginInlineEnd: 0 }}>{t('flag.builtin')}</Tag>}
        </Space>
      ),
    },
    { title: t('col.sort'), dataIndex: 'sort', width: 70, align: 'right' },
    linkActionsColumn<ResourceNode>(
      {
        title: t('col.actions'),
        width: 190,
        items: [
          { key: 'addChild', perm: 'newUrl', label: t('action.addChild'), onClick: (n) => setEditing({ parentId: n.id }) },
          { key: 'edit', perm: 'editUrl', label: t('action.edit'), onClick: (n) => setEditing({ node: n, parentId: n.parentId }) },
          { key: 'delete', perm: 'removeUrl', label: t('action.delete'), danger: true, onClick: remove },
        ],
      },
      can,
    ),
  ];

  return (
    <PageCard>
      <Space style={{ marginBottom: 12, width: '100%', justifyContent: 'space-between' }}>
        <Space>
          <Button onClick={() => setExpanded(allIds)}>{t('action.expandAll')}</Button>
          <Button onClick={() => setExpanded([])}>{t('action.collapseAll')}</Button>
          <Button icon={<ReloadOutlined />} onClick={() => void tree.refetch()}>
            {t('action.reload')}
          </Button>
        </Space>
        <AddButton perm="newUrl" onClick={() => setEditing({ parentId: null })}>
          {t('action.add')}
        </AddButton>
      </Space>
      {tree.error ? (
        <Result status="warning" subTitle={errorMessage(tree.error, t)} extra={<Button onClick={() => void tree.refetch()}>{t('action.reload')}</Button>} />
      ) : (
        <Table<ResourceNode>
          size="small"
          rowKey="id"
          loading={tree.isFetching}
          columns={columns}
          dataSource={tree.data ?? []}
          pagination={false}
          expandable={{ expandedRowKeys: expanded ?? allIds, onExpandedRowsChange: (k) => setExpanded(k as number[]) }}
          locale={{ emptyText: t('empty') }}
          scroll={{ x: 1500 }}
        />
      )}
      <ResourceDialog target={editing} tree={tree.data ?? []} onClose={() => setEditing(null)} onDone={() => void tree.refetch()} />
    </PageCard>
  );
}
