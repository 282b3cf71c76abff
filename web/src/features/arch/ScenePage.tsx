/**
 * /arch/architecture: the organisation (scene) tree of spec §2/§3/§4. Pick a node to see it
 * and what it holds; add a child or a same-level node, edit, delete (refused while it holds
 * carriers or children), drag to reorder or move.
 */
import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Descriptions, Empty, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { DeleteOutlined, EditOutlined, PictureOutlined, PlusOutlined, SubnodeOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { SCENE_FUNC, carrierApi, sceneApi } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { OrgTree, PageCard, PagedTable, SCENE_TREE_KEY, TreePage, funcTypeIcon, useSceneTree, type SceneMove, type SceneNode } from '../../ui';
import { SceneDialog, type SceneTarget } from './SceneDialog';
import { carrierTypeLabel } from '../carrier/carrierLabels';
import { SceneExportButton } from '../backup/SceneExportButton';

export default function ScenePage() {
  const { t } = useTranslation('arch');
  const { can } = useAuth();
  const qc = useQueryClient();
  const navigate = useNavigate();
  const [picked, setNode] = useState<SceneNode | undefined>();
  const tree = useSceneTree();
  // Nothing picked yet: a customer user starts on its own customer (where top-level nodes are added).
  const node = picked ?? (tree.data?.length === 1 && tree.data[0].nodeType === 'customer' ? tree.data[0] : undefined);
  const [dialog, setDialog] = useState<SceneTarget | null>(null);
  const sceneId = node?.nodeType === 'scene' ? node.scene_id! : undefined;
  const detail = useCall(sceneApi.detail, { query: { id: sceneId ?? 0 } }, { enabled: !!sceneId });

  const refreshTree = () => {
    void qc.invalidateQueries({ queryKey: SCENE_TREE_KEY });
    void detail.refetch();
  };
  const move = useAction(sceneApi.move, { success: t('msg.moved'), onDone: refreshTree, onFailed: () => void refreshTree() });
  const del = useAction(sceneApi.del, {
    success: t('msg.deleted'),
    onDone: () => {
      setNode(undefined);
      refreshTree();
    },
  });

  const onMove = ({ node: n, parent, index }: SceneMove) => {
    if (!can('editScene') || !n.scene_id) return;
    if (parent.nodeType === 'customer' && parent.scope_id !== n.scope_id) return;
    void move.run({ body: { id: n.scene_id, parentId: parent.nodeType === 'scene' ? parent.scene_id : null, index } });
  };

  const d = detail.data;
  const addChild = (parentId: number | null, customerId: number | null, parentLabel: string) => setDialog({ mode: 'add', parentId, customerId, parentLabel });

  const actions = d && (
    <Space wrap>
      {can('newScene') && (
        <Tooltip title={d.funcType === SCENE_FUNC.floorPlan ? t('hint.planNoChildren') : undefined}>
          <Button icon={<SubnodeOutlined />} disabled={d.funcType === SCENE_FUNC.floorPlan} onClick={() => addChild(d.id, d.customerId, d.label)}>
            {t('action.addChild')}
          </Button>
        </Tooltip>
      )}
      {can('newScene') && (
        <Button icon={<PlusOutlined />} onClick={() => addChild(d.parentId, d.customerId, d.parentId ? t('sameLevelOf', { name: d.label }) : t('topLevel'))}>
          {t('action.addSibling')}
        </Button>
      )}
      {can('editScene') && (
        <Button icon={<EditOutlined />} onClick={() => setDialog({ mode: 'edit', id: d.id, parentId: d.parentId, label: d.label, funcType: d.funcType, lng: d.lng, lat: d.lat, childCount: d.childCount })}>
          {t('action.edit')}
        </Button>
      )}
      {can('viewScene', 'viewHistory', 'viewEx') && <SceneExportButton sceneId={d.id} name={d.label} />}
      {d.funcType === SCENE_FUNC.floorPlan && (
        <Button icon={<PictureOutlined />} onClick={() => navigate(`/plan?sceneId=${d.id}`)}>
          {t('action.openPlan')}
        </Button>
      )}
      {can('removeScene') &&
        (d.childCount > 0 || d.carrierCount > 0 ? (
          <Tooltip title={t('hint.cannotDelete')}>
            <Button danger icon={<DeleteOutlined />} disabled>
              {t('action.delete')}
            </Button>
          </Tooltip>
        ) : (
          <Popconfirm title={t('confirm.delete', { name: d.label })} okText={t('form.ok')} cancelText={t('form.cancel')} okButtonProps={{ danger: true }} onConfirm={() => del.run({ query: { ids: idList([d.id]) } })}>
            <Button danger icon={<DeleteOutlined />}>
              {t('action.delete')}
            </Button>
          </Popconfirm>
        ))}
    </Space>
  );

  return (
    <TreePage tree={<OrgTree selectedKey={node?.code} onSelect={setNode} onMove={can('editScene') ? onMove : undefined} />}>
      <PageCard title={t('title')}>
        {can('editScene') && <Typography.Paragraph type="secondary">{t('hint.drag')}</Typography.Paragraph>}
        {!node || node.nodeType === 'all' || node.nodeType === 'carrier' ? (
          <Empty description={t('pick')} />
        ) : node.nodeType === 'customer' ? (
          <Space direction="vertical" style={{ width: '100%' }}>
            <Descriptions column={1} size="small" bordered items={[{ key: 'c', label: t('col.customer'), children: node.label }, { key: 'n', label: t('col.topNodes'), children: node.children.length }]} />
            {can('newScene') && (
              <Button type="primary" icon={<PlusOutlined />} onClick={() => addChild(null, node.scope_id, node.label)}>
                {t('action.addTop')}
              </Button>
            )}
          </Space>
        ) : detail.isError ? (
          <Alert type="error" showIcon title={t('loadFailed')} />
        ) : d ? (
          <Space direction="vertical" size="middle" style={{ width: '100%' }}>
            <Descriptions
              column={{ xs: 1, sm: 2 }}
              size="small"
              bordered
              items={[
                { key: 'label', label: t('col.label'), children: d.label },
                { key: 'type', label: t('col.funcType'), children: <Tag icon={funcTypeIcon(d.funcType)}>{t(`funcType.${d.funcType}`)}</Tag> },
                { key: 'customer', label: t('col.customer'), children: d.customerName },
                { key: 'code', label: t('col.code'), children: <Typography.Text copyable>{d.code}</Typography.Text> },
                { key: 'coords', label: t('col.coords'), children: d.lng !== null && d.lat !== null ? `${d.lng}, ${d.lat}` : '--' },
                { key: 'counts', label: t('col.holds'), children: t('holds', { children: d.childCount, carriers: d.carrierCount }) },
              ]}
            />
            {actions}
            <Typography.Title level={5} style={{ margin: 0 }}>
              {t('carriersHere')}
            </Typography.Title>
            <PagedTable
              route={carrierApi.page}
              params={{ sceneId: d.id }}
              size="small"
              rowKey="id"
              locale={{ emptyText: t('noCarriers') }}
              onRow={(r) => ({ onClick: () => navigate(`/carrierDetailPage?id=${r.id}`), style: { cursor: 'pointer' } })}
              columns={[
                { title: t('col.carrier'), dataIndex: 'name' },
                { title: t('col.carrierType'), dataIndex: 'type', render: (v: number) => carrierTypeLabel(t, v) },
                { title: t('col.scene'), dataIndex: 'sceneLabel' },
              ]}
            />
          </Space>
        ) : null}
      </PageCard>
      <SceneDialog target={dialog} onClose={() => setDialog(null)} onDone={refreshTree} />
    </TreePage>
  );
}
