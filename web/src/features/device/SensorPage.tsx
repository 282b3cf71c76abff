/**
 * /device/sensor, /device/gas, /device/magnetism: the sensor rows of one kind in the caller's
 * scope (spec §2 device section, §3 Sensor, gas codes): search by number, type or gas, status and
 * binding; latest values; split-button actions (detail, history, edit, configure radio sensors,
 * stop, delete); import; lending.
 */
import { useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { App, Button, Dropdown, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { deviceUsage, GAS_CODES, SENSOR_TYPES, type SensorKind, type SensorRow, type SensorType } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { SENSOR_KIND_DEFS, valueColumns } from './sensorKinds';
import { typeName } from '../type/typeLabels';
import { CalibrationTag, DeviceStatus, UsageTag } from './DeviceStatus';
import { SensorDialog } from './SensorDialog';
import { ImportDialog } from './ImportDialog';
import { ConfigDialog } from './ConfigDialog';
import { LendDialog } from '../loan/LendDialog';
import { LentOutDialog } from '../loan/LentOutDialog';

interface Filters {
  devNo?: string;
  type?: SensorType;
  gasCode?: string;
  status?: number;
  bound?: 'true' | 'false';
}

const RADIO_TYPES = SENSOR_TYPES.filter((s) => s !== 'gas' && s !== 'magnet');

export default function SensorPage({ kind = 'sensor' }: { kind?: SensorKind }) {
  const { t } = useTranslation('device');
  const { can: canDo, user } = useAuth();
  const def = SENSOR_KIND_DEFS[kind];
  // The kind's function codes: editGas on the gas page, editSensor on the sensors'.
  const can = (...codes: string[]) => canDo(...codes.map((c) => c.replace(/Sensor$/, def.object)));
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<Filters>({});
  const [editing, setEditing] = useState<SensorRow | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const [selected, setSelected] = useState<SensorRow[]>([]);
  const [configuring, setConfiguring] = useState<SensorRow[] | null>(null);
  const [lending, setLending] = useState<SensorRow[] | null>(null);
  const [lentOut, setLentOut] = useState(false);
  // Lending: one customer's sensors, none borrowed (docs/devices.md "Lending").
  const lendOk = selected.length > 0 && new Set(selected.map((r) => r.customerId)).size === 1 && selected.every((r) => r.lentUntil === null);
  // §5 batch configuration: one type and one customer.
  const batchOk = selected.length > 0 && new Set(selected.map((r) => r.type)).size === 1 && new Set(selected.map((r) => r.customerId)).size === 1;
  const params = useMemo(() => (kind === 'sensor' ? { ...filters, kind } : { ...filters }), [filters, kind]);
  const reload = () => table.current?.reload();
  const del = useAction(def.api.del, { success: t('msg.deleted'), onDone: reload });
  const history = (r: SensorRow) => navigate(`/historyData?deviceNo=${encodeURIComponent(r.devNo)}`);
  const setStatus = useAction(def.api.setStatus, { onDone: reload });
  const switchStatus = (id: number, name: string, stop: boolean) =>
    modal.confirm({
      title: t(stop ? 'status.stopTitle' : 'status.enableTitle', { name }),
      content: t(stop ? 'status.stopText' : 'status.enableText'),
      okText: stop ? t('action.stop') : t('action.enable'),
      okButtonProps: { danger: stop },
      cancelText: t('form.cancel'),
      onOk: () => setStatus.run({ body: { ids: [id], stopped: stop } }),
    });
  const remove = (r: SensorRow) =>
    modal.confirm({
      title: t('sensor.deleteTitle', { devNo: r.devNo }),
      content: t('sensor.deleteText'),
      okText: t('action.delete'),
      okButtonProps: { danger: true },
      cancelText: t('form.cancel'),
      onOk: () => del.run({ query: { ids: idList([r.id]) } }),
    });

  const columns: ColumnsType<SensorRow> = [
    { title: t('col.status'), dataIndex: 'status', width: 100, render: (s: number, r) => <DeviceStatus status={s} lastSeen={r.lastTs} tz={r.tz} /> },
    {
      title: t('sensor.devNo'),
      dataIndex: 'devNo',
      width: 130,
      render: (v: string, r) => (
        <Typography.Link code onClick={() => navigate(`${def.detail}?id=${r.id}`)}>
          {v}
        </Typography.Link>
      ),
    },
    {
      title: t('sensor.usage'),
      key: 'usage',
      width: 120,
      render: (_, r) => (
        <Space size={4} wrap>
          <UsageTag usage={deviceUsage(r)} />
          {r.lentUntil !== null && (
            <Tooltip title={t('loan:borrowedUntil', { at: formatInZone(r.lentUntil, user?.timeZone, 'YYYY-MM-DD HH:mm') })}>
              <Tag color="purple" style={{ marginInlineEnd: 0 }}>
                {t('loan:borrowed')}
              </Tag>
            </Tooltip>
          )}
        </Space>
      ),
    },
    ...valueColumns(kind, t),
    { title: t('sensor.carrier'), dataIndex: 'carrierName', width: 150, ellipsis: true, render: (v: string | null, r) => (v ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{v}</Typography.Link> : <Typography.Text type="secondary">{t('sensor.unbound')}</Typography.Text>) },
    { title: t('sensor.gateway'), dataIndex: 'gatewaySn', width: 140, render: (v: string, r) => <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${r.gatewayId}`)}>{v}</Typography.Link> },
    { title: t('sensor.calibExpiry'), dataIndex: 'calibExpiry', width: 130, render: (v: string | null) => <CalibrationTag expiry={v} /> },
    { title: t('sensor.sampleInterval'), dataIndex: 'sampleInterval', width: 100, align: 'right', render: (v: number) => `${v} s` },
    { title: t('col.lastSeen'), dataIndex: 'lastTs', width: 150, render: (v: number | null, r) => (v ? formatInZone(v, r.tz, 'YYYY-MM-DD HH:mm') : '--') },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    {
      title: t('col.actions'),
      key: 'actions',
      width: 120,
      fixed: 'right',
      render: (_, r) => (
        <Dropdown.Button
          size="small"
          onClick={() => navigate(`${def.detail}?id=${r.id}`)}
          menu={{
            items: [
              { key: 'history', label: t('action.history') },
              ...(can('editSensor')
                ? [
                    { key: 'edit', label: t('action.edit') },
                    ...(kind === 'sensor' ? [{ key: 'config', label: t('config.button') }] : []),
                    { key: 'status', label: r.status === 2 ? t('action.enable') : t('action.stop') },
                  ]
                : []),
              ...(can('removeSensor') ? [{ key: 'delete', danger: true, label: t('action.delete') }] : []),
            ],
            onClick: ({ key }) => {
              if (key === 'history') history(r);
              if (key === 'edit') setEditing(r);
              if (key === 'config') setConfiguring([r]);
              if (key === 'status') switchStatus(r.id, r.devNo, r.status !== 2);
              if (key === 'delete') remove(r);
            },
          }}
        >
          {t('action.detail')}
        </Dropdown.Button>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'devNo', type: 'input', label: t('sensor.devNo'), width: 140 },
    ...(kind === 'sensor' ? [{ name: 'type', type: 'select' as const, label: t('sensor.type'), width: 190, options: RADIO_TYPES.map((s) => ({ value: s, label: t(`carrier:sensorType.${s}`) })) }] : []),
    ...(kind === 'gas' ? [{ name: 'gasCode', type: 'select' as const, label: t('gas.gasCode'), width: 220, options: GAS_CODES.map((g) => ({ value: g, label: typeName(t, 'gas', g) })) }] : []),
    { name: 'status', type: 'select', label: t('col.status'), width: 110, options: [0, 1, 2].map((s) => ({ value: s, label: t(`status.${s}`) })) },
    { name: 'bound', type: 'select', label: t('sensor.binding'), width: 120, options: [{ value: 'true', label: t('sensor.bound') }, { value: 'false', label: t('sensor.unbound') }] },
  ];
  return (
    <PageCard title={t(`${def.texts}.title`)}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters({ devNo: v.devNo as string, type: v.type as SensorType, gasCode: v.gasCode as string, status: v.status as number, bound: v.bound as Filters['bound'] })} />
        </div>
        <Space>
          {kind === 'sensor' && <Button onClick={() => navigate('/OperateRecord')}>{t('config.log')}</Button>}
          {/* The platform manages loans on their page; a customer sees what it has lent out. */}
          {can('viewBorrow') ? <Button onClick={() => navigate('/sys/deviceTransfer')}>{t('loan:title')}</Button> : <Button onClick={() => setLentOut(true)}>{t('loan:lentOut')}</Button>}
          {can('newBorrow') && (
            <Tooltip title={selected.length && !lendOk ? t('loan:mixed') : undefined}>
              <Button disabled={!lendOk} onClick={() => setLending(selected)}>
                {t('loan:lend')}
                {selected.length ? ` (${selected.length})` : ''}
              </Button>
            </Tooltip>
          )}
          {kind === 'sensor' && can('editSensor') && (
            <Tooltip title={selected.length && !batchOk ? t('config.mixed') : undefined}>
              <Button icon={<SettingOutlined />} disabled={!batchOk} onClick={() => setConfiguring(selected)}>
                {t('config.button')}
                {selected.length ? ` (${selected.length})` : ''}
              </Button>
            </Tooltip>
          )}
        </Space>
        {can('newSensor') && (
          <Space>
            <Button icon={<UploadOutlined />} onClick={() => setImporting(true)}>
              {t('import.button')}
            </Button>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
              {t('action.add')}
            </Button>
          </Space>
        )}
      </div>
      <PagedTable
        ref={table}
        route={def.api.page}
        params={params}
        size="small"
        rowKey="id"
        rowSelection={can('editSensor') || can('newBorrow') ? { selectedRowKeys: selected.map((r) => r.id), onChange: (_keys, rows) => setSelected(rows) } : undefined}
        columns={columns} locale={{ emptyText: t(`${def.texts}.empty`) }} scroll={{ x: 1650 }} />
      <SensorDialog kind={kind} target={editing} onClose={() => setEditing(null)} onDone={reload} />
      <ImportDialog def={def} open={importing} onClose={() => setImporting(false)} onDone={reload} />
      <ConfigDialog sensors={configuring} onClose={() => setConfiguring(null)} onDone={() => setSelected([])} />
      <LendDialog
        sensors={lending}
        onClose={() => setLending(null)}
        onDone={() => {
          setSelected([]);
          reload();
        }}
      />
      <LentOutDialog open={lentOut} onClose={() => setLentOut(false)} />
    </PageCard>
  );
}
