/**
 * /carrier/<type>: the carriers (monitoring points) of one type (spec §2 carrier section):
 * organisation tree filter, search bar, paged table with the alarm switch, split-button actions
 * and batch alarm on/off and delete.
 */
import { useMemo, useRef, useState, type ComponentType } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Dropdown, Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { BellOutlined, DeleteOutlined, MutedOutlined, PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CARRIER_MODES, CARRIER_STATUS, carrierApi, type CarrierMode, type CarrierRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { OrgTree, PageCard, PagedTable, SearchBar, TreePage, type PagedTableRef, type SceneNode, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { selectionOf, type SceneSelection } from '../databoard/SceneFilterTree';
import { AlarmSwitch } from './AlarmSwitch';
import { CarrierDialog } from './CarrierDialog';
import { carrierStatusLabel, carrierTypePlural, STATUS_COLORS, zoneText } from './carrierLabels';

interface Filters {
  name?: string;
  status?: number;
  mode?: CarrierMode;
  alarmOn?: 'true' | 'false';
}

function CarrierList({ type }: { type: number }) {
  const { t } = useTranslation('carrier');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<PagedTableRef>(null);
  const [scene, setScene] = useState<SceneSelection>({});
  const [filters, setFilters] = useState<Filters>({});
  const [selected, setSelected] = useState<number[]>([]);
  const [editing, setEditing] = useState<CarrierRow | 'new' | null>(null);
  const params = useMemo(() => ({ type, sceneId: scene.sceneId, customerId: scene.customerId, ...filters }), [type, scene, filters]);
  const reload = () => table.current?.reload();
  const canEdit = can('editCarrier');

  const afterBatch = () => {
    setSelected([]);
    reload();
  };
  const switchMany = useAction(carrierApi.alarmSwitch, { onDone: afterBatch });
  const del = useAction(carrierApi.del, { success: t('msg.deleted'), onDone: afterBatch });
  const remove = (ids: number[], name?: string) =>
    modal.confirm({
      title: name ? t('confirm.deleteOne', { name }) : t('confirm.deleteMany', { count: ids.length }),
      content: t('confirm.deleteText'),
      okText: t('action.delete'),
      okButtonProps: { danger: true },
      cancelText: t('form.cancel'),
      onOk: () => del.run({ query: { ids: idList(ids) } }),
    });

  const columns: ColumnsType<CarrierRow> = [
    { title: t('col.alarm'), key: 'alarm', width: 64, align: 'center', render: (_, r) => <AlarmSwitch carrier={r} editable={canEdit} onChanged={reload} /> },
    {
      title: t('col.name'),
      dataIndex: 'name',
      width: 180,
      ellipsis: true,
      render: (v: string, r) => (
        <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.id}`)}>{v}</Typography.Link>
      ),
    },
    { title: t('col.scene'), dataIndex: 'sceneLabel', width: 140, ellipsis: true },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    { title: t('col.status'), dataIndex: 'status', width: 110, render: (s: number) => <Tag color={STATUS_COLORS[s]}>{carrierStatusLabel(t, s)}</Tag> },
    { title: t('col.mode'), dataIndex: 'mode', width: 90, render: (m: string) => (m === 'transport' ? <Tag color="purple">{t('mode.transport')}</Tag> : t('mode.normal')) },
    { title: t('col.tempZone'), key: 'tz', width: 120, render: (_, r) => zoneText(r.tempMin, r.tempMax, '°C') },
    { title: t('col.humZone'), key: 'hz', width: 120, render: (_, r) => zoneText(r.humMin, r.humMax, '%RH') },
    { title: t('col.sensors'), dataIndex: 'sensorCount', width: 80, align: 'right' },
    { title: t('col.loadType'), dataIndex: 'loadType', width: 100, render: (l: number) => t(`loadType.${l}`) },
    { title: t('col.createdAt'), dataIndex: 'createdAt', width: 140, render: (v: number) => formatInZone(v, user?.timeZone ?? null, 'YYYY-MM-DD HH:mm') },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, r) => (
        <Dropdown.Button
          size="small"
          onClick={() => navigate(`/carrierDetailPage?id=${r.id}`)}
          menu={{
            items: [
              ...(canEdit ? [{ key: 'edit', label: t('action.edit') }] : []),
              { key: 'history', label: t('action.history') },
              ...(canEdit ? [{ key: 'alarm', label: r.alarmOn ? t('action.alarmOff') : t('action.alarmOn') }] : []),
              ...(can('removeCarrier') ? [{ key: 'delete', danger: true, label: t('action.delete') }] : []),
            ],
            onClick: ({ key }) => {
              if (key === 'edit') setEditing(r);
              if (key === 'history') navigate(`/historyData?carrierId=${r.id}`);
              if (key === 'alarm') void switchMany.run({ body: { ids: [r.id], alarmOn: !r.alarmOn } });
              if (key === 'delete') remove([r.id], r.name);
            },
          }}
        >
          {t('action.detail')}
        </Dropdown.Button>
      ),
    },
  ];

  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('filter.name'), width: 150 },
    { name: 'status', type: 'select', label: t('filter.status'), width: 130, options: Object.values(CARRIER_STATUS).map((s) => ({ value: s, label: carrierStatusLabel(t, s) })) },
    { name: 'mode', type: 'select', label: t('filter.mode'), width: 110, options: CARRIER_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) })) },
    { name: 'alarmOn', type: 'select', label: t('filter.alarm'), width: 110, options: [{ value: 'true', label: t('alarm.on') }, { value: 'false', label: t('alarm.off') }] },
  ];

  const batch = selected.length > 0 && (
    <Space wrap>
      <span>{t('selected', { count: selected.length })}</span>
      {canEdit && (
        <Button size="small" icon={<BellOutlined />} onClick={() => switchMany.run({ body: { ids: selected, alarmOn: true } })}>
          {t('action.alarmOn')}
        </Button>
      )}
      {canEdit && (
        <Button size="small" icon={<MutedOutlined />} onClick={() => switchMany.run({ body: { ids: selected, alarmOn: false } })}>
          {t('action.alarmOff')}
        </Button>
      )}
      {can('removeCarrier') && (
        <Button size="small" danger icon={<DeleteOutlined />} onClick={() => remove(selected)}>
          {t('action.delete')}
        </Button>
      )}
    </Space>
  );

  return (
    <TreePage tree={<OrgTree selectedKey={scene.code} onSelect={(n: SceneNode) => setScene(selectionOf(n))} />}>
      <PageCard title={carrierTypePlural(t, type)}>
        <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
          <div style={{ flex: 1, minWidth: 240 }}>
            <SearchBar fields={fields} onSearch={(v) => setFilters({ name: v.name as string, status: v.status as number, mode: v.mode as CarrierMode, alarmOn: v.alarmOn as Filters['alarmOn'] })} />
          </div>
          {/* Vehicles: their trips, routes and transport codes (/transHistory, docs/transport.md). */}
          {type === 3 && can('viewCar') && <Button onClick={() => void navigate('/transHistory')}>{t('trip:title')}</Button>}
          {can('newCarrier') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('action.add')}
            </Button>
          )}
        </div>
        {batch && <div style={{ margin: '4px 0 8px' }}>{batch}</div>}
        <PagedTable
          ref={table}
          route={carrierApi.page}
          params={params}
          size="small"
          rowKey="id"
          columns={columns}
          rowSelection={canEdit || can('removeCarrier') ? { selectedRowKeys: selected, onChange: (k) => setSelected(k.map(Number)) } : undefined}
          locale={{ emptyText: t('empty', { type: carrierTypePlural(t, type) }) }}
          scroll={{ x: 1400 }}
        />
      </PageCard>
      <CarrierDialog target={editing} defaultType={type} defaultSceneId={scene.sceneId} onClose={() => setEditing(null)} onDone={reload} />
    </TreePage>
  );
}

const byType = new Map<number, ComponentType>();
/** One page component per carrier type (spec §2: one route per type). */
export function carrierListOf(type: number): ComponentType {
  let c = byType.get(type);
  if (!c) {
    c = () => <CarrierList type={type} />;
    byType.set(type, c);
  }
  return c;
}
