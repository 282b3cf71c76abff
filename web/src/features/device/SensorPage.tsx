/**
 * /device/sensor, /device/gas, /device/magnetism: the sensor rows of one kind in the caller's
 * scope (spec §2 device section, §3 Sensor, gas codes): search by number, type or gas, status and
 * binding; latest values; split-button actions (detail, history, edit, configure radio sensors,
 * stop, delete); import; lending.
 */
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Space, Tag, Tooltip } from 'antd';
import { PlusOutlined, SettingOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { deviceUsage, type SensorKind, type SensorRow } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { ListPage, useListRef, type ListColumn } from '../../ui';
import { formatInZone } from '../../lib/format';
import { SENSOR_KIND_DEFS, valueColumns } from './sensorKinds';
import { CalibrationTag, UsageTag } from './DeviceStatus';
import { deviceStatusTexts, useDeviceActions, useDeviceColumns } from './deviceList';
import { SensorDialog } from './SensorDialog';
import { ImportDialog } from './ImportDialog';
import { ConfigDialog } from './ConfigDialog';
import { PrintLabelsButton } from './PrintLabelsButton';
import { LendDialog } from '../loan/LendDialog';
import { LentOutDialog } from '../loan/LentOutDialog';

export default function SensorPage({ kind = 'sensor' }: { kind?: SensorKind }) {
  const { t } = useTranslation('device');
  const { can: canDo, user } = useAuth();
  const def = SENSOR_KIND_DEFS[kind];
  // The kind's function codes: editGas on the gas page, editSensor on the sensors'.
  const code = (c: string) => c.replace(/Sensor$/, def.object);
  const can = (...codes: string[]) => canDo(...codes.map(code));
  const navigate = useNavigate();
  const list = useListRef();
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
  const params = useMemo(() => (kind === 'sensor' ? { kind } : undefined), [kind]);
  const col = useDeviceColumns();
  const act = useDeviceActions<SensorRow>({
    api: def.api,
    reload: list.reload,
    cancel: t('form.cancel'),
    deleted: t('msg.deleted'),
    editPerm: code('editSensor'),
    removePerm: code('removeSensor'),
    statusTexts: deviceStatusTexts(t, (r: SensorRow) => r.devNo),
    deleteTexts: (r) => ({ label: t('action.delete'), title: t('sensor.deleteTitle', { devNo: r.devNo }), content: t('sensor.deleteText') }),
  });
  const detail = (r: SensorRow) => navigate(`${def.detail}?id=${r.id}`);
  const history = (r: SensorRow) => navigate(`/historyData?deviceNo=${encodeURIComponent(r.devNo)}`);

  const columns: ListColumn<SensorRow>[] = [
    col.status(t, (r) => ({ at: r.lastTs, tz: r.tz })),
    col.number(t('sensor.devNo'), 'devNo', 130, detail),
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
    {
      ...col.carrier<SensorRow>(t('sensor.carrier'), 150, t('sensor.unbound')),
      search: { type: 'select', name: 'bound', label: t('sensor.binding'), width: 120, order: 1, options: [{ value: 'true', label: t('sensor.bound') }, { value: 'false', label: t('sensor.unbound') }] },
    },
    col.gateway(t('sensor.gateway')),
    { title: t('sensor.calibExpiry'), dataIndex: 'calibExpiry', width: 130, render: (v: string | null) => <CalibrationTag expiry={v} /> },
    { title: t('sensor.sampleInterval'), dataIndex: 'sampleInterval', width: 100, align: 'right', render: (v: number) => `${v} s` },
    { title: t('col.lastSeen'), dataIndex: 'lastTs', width: 150, render: (v: number | null, r) => (v ? formatInZone(v, r.tz, 'YYYY-MM-DD HH:mm') : '--') },
    col.customer(t('col.customer')),
  ];
  return (
    <ListPage
      ref={list.ref}
      title={t(`${def.texts}.title`)}
      route={def.api.page}
      params={params}
      columns={columns}
      actions={{
        title: t('col.actions'),
        width: 120,
        primary: { label: t('action.detail'), onClick: detail },
        items: [
          { key: 'history', label: t('action.history'), onClick: history },
          { key: 'workOrder', perm: 'newWorkOrder', label: t('workOrder:entry'), onClick: (r) => navigate(`/order/workOrder?raise=sensor:${r.id}&name=${encodeURIComponent(r.devNo)}`) },
          { key: 'edit', perm: code('editSensor'), label: t('action.edit'), onClick: setEditing },
          { key: 'config', perm: code('editSensor'), when: () => kind === 'sensor', label: t('config.button'), onClick: (r) => setConfiguring([r]) },
          act.status,
          act.remove,
        ],
      }}
      toolbar={
        <>
          <Space>
            {kind === 'sensor' && <Button onClick={() => navigate('/OperateRecord')}>{t('config.log')}</Button>}
            {/* The monitor tasks' entry is hidden in the menu (spec §2 /arch/task): the sensors' silence is what they judge. */}
            {can('viewDetectionTask') && <Button onClick={() => navigate('/arch/task')}>{t('monitorTask:title')}</Button>}
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
            {kind === 'sensor' && (can('editSensor') || can('newBorrow')) && <PrintLabelsButton ids={selected.map((r) => r.id)} />}
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
        </>
      }
      rowSelection={can('editSensor') || can('newBorrow') ? { selectedRowKeys: selected.map((r) => r.id), onChange: (_keys, rows) => setSelected(rows) } : undefined}
      empty={t(`${def.texts}.empty`)}
      scrollX={1650}
    >
      <SensorDialog kind={kind} target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
      <ImportDialog def={def} open={importing} onClose={() => setImporting(false)} onDone={list.reload} />
      <ConfigDialog sensors={configuring} onClose={() => setConfiguring(null)} onDone={() => setSelected([])} />
      <LendDialog
        sensors={lending}
        onClose={() => setLending(null)}
        onDone={() => {
          setSelected([]);
          list.reload();
        }}
      />
      <LentOutDialog open={lentOut} onClose={() => setLentOut(false)} />
    </ListPage>
  );
}
