/**
 * /sys/deviceType: the device-type catalogue (spec §3): every kind's types, what each reports,
 * how many of the caller's devices have it, and whether it is offered for new devices (editType
 * holders switch it, with a note). GET /service/share/getDeviceType; PUT /service/deviceType/update.
 */
import { useMemo, useState } from 'react';
import { App, Button, Popconfirm, Switch, Table, Tabs, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { DEVICE_KINDS, typeApi, type DeviceKind, type DeviceTypeRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PageCard } from '../../ui';
import { TypeDialog } from './TypeDialog';
import { typeName } from './typeLabels';

export default function DeviceTypePage() {
  const { t } = useTranslation('type');
  const { message } = App.useApp();
  const { can, user } = useAuth();
  const list = useCall(typeApi.devices);
  const [kind, setKind] = useState<DeviceKind>('sensor');
  const [editing, setEditing] = useState<DeviceTypeRow | null>(null);
  const rows = useMemo(() => (list.data ?? []).filter((d) => d.kind === kind), [list.data, kind]);
  const editable = can('editType');

  const save = async (r: DeviceTypeRow, v: { enabled: boolean; remark: string }) => {
    await call(typeApi.updateDevice, { body: { kind: r.kind, code: r.code, ...v } });
    void message.success(t('msg.saved'));
    await list.refetch();
  };

  const columns: ColumnsType<DeviceTypeRow> = [
    { title: t('col.name'), key: 'name', width: 200, render: (_, r) => typeName(t, r.kind, r.code) },
    { title: t('col.code'), dataIndex: 'code', width: 100, render: (v: string) => <code>{v}</code> },
    {
      title: t('col.readings'),
      dataIndex: 'readings',
      width: 260,
      render: (v: string[]) => (v.length ? v.map((k) => <Tag key={k}>{t(`reading.${k}`)}</Tag>) : <Typography.Text type="secondary">{t('none')}</Typography.Text>),
    },
    { title: t('col.inUse'), dataIndex: 'inUse', width: 90, align: 'right' },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 120,
      render: (on: boolean, r) =>
        !editable ? (
          <Tag color={on ? 'green' : 'default'}>{on ? t('on') : t('off')}</Tag>
        ) : on ? (
          <Popconfirm title={t('confirmOff', { name: typeName(t, r.kind, r.code), count: r.inUse })} okText={t('form.ok')} cancelText={t('form.cancel')} onConfirm={() => save(r, { enabled: false, remark: r.remark })}>
            <Switch checked aria-label={typeName(t, r.kind, r.code)} />
          </Popconfirm>
        ) : (
          <Switch checked={false} aria-label={typeName(t, r.kind, r.code)} onChange={() => void save(r, { enabled: true, remark: r.remark })} />
        ),
    },
    { title: t('col.remark'), dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '--' },
    { title: t('col.updated'), dataIndex: 'updatedAt', width: 170, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone) : '--') },
    ...(editable
      ? [
          {
            title: t('col.actions'),
            key: 'actions',
            width: 90,
            render: (_: unknown, r: DeviceTypeRow) => (
              <Button type="link" size="small" onClick={() => setEditing(r)}>
                {t('edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageCard title={t('deviceTitle')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Tabs
        activeKey={kind}
        onChange={(k) => setKind(k as DeviceKind)}
        items={DEVICE_KINDS.map((k) => {
          const of = (list.data ?? []).filter((d) => d.kind === k);
          const off = of.filter((d) => !d.enabled).length;
          return { key: k, label: `${t(`kind.${k}`)} ${of.length}${off ? ` · ${t('offCount', { count: off })}` : ''}` };
        })}
      />
      <Table<DeviceTypeRow> size="small" rowKey="code" loading={list.isFetching} columns={columns} dataSource={rows} pagination={false} scroll={{ x: 900 }} />
      <TypeDialog
        target={editing && { name: typeName(t, editing.kind, editing.code), enabled: editing.enabled, remark: editing.remark }}
        onClose={() => setEditing(null)}
        onSave={(v) => save(editing!, v)}
      />
    </PageCard>
  );
}
