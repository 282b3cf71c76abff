/**
 * /sys/carrierType: the carrier types (spec §3: 1 incubator … 7 other), how many of the caller's
 * carriers have each, and whether it is offered for new carriers (editType holders switch it,
 * with a note). GET /service/share/getCarrierType; PUT /service/carrierType/update.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { typeApi, type CarrierTypeRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PageCard } from '../../ui';
import { TypeDialog } from './TypeDialog';

export default function CarrierTypePage() {
  const { t } = useTranslation('type');
  const { message } = App.useApp();
  const { can, user } = useAuth();
  const list = useCall(typeApi.carriers);
  const [editing, setEditing] = useState<CarrierTypeRow | null>(null);
  const editable = can('editType');
  const name = (r: CarrierTypeRow) => t(`carrier:type.${r.type}`);

  const save = async (r: CarrierTypeRow, v: { enabled: boolean; remark: string }) => {
    await call(typeApi.updateCarrier, { body: { type: r.type, ...v } });
    void message.success(t('msg.saved'));
    await list.refetch();
  };

  const columns: ColumnsType<CarrierTypeRow> = [
    { title: t('col.name'), key: 'name', width: 200, render: (_, r) => name(r) },
    { title: t('col.code'), key: 'code', width: 160, render: (_, r) => <code>{`${r.type} · ${r.key}`}</code> },
    { title: t('col.inUse'), dataIndex: 'inUse', width: 90, align: 'right' },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 120,
      render: (on: boolean, r) =>
        !editable ? (
          <Tag color={on ? 'green' : 'default'}>{on ? t('on') : t('off')}</Tag>
        ) : on ? (
          <Popconfirm title={t('confirmOff', { name: name(r), count: r.inUse })} okText={t('form.ok')} cancelText={t('form.cancel')} onConfirm={() => save(r, { enabled: false, remark: r.remark })}>
            <Switch checked aria-label={name(r)} />
          </Popconfirm>
        ) : (
          <Switch checked={false} aria-label={name(r)} onChange={() => void save(r, { enabled: true, remark: r.remark })} />
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
            render: (_: unknown, r: CarrierTypeRow) => (
              <Button type="link" size="small" onClick={() => setEditing(r)}>
                {t('edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <PageCard title={t('carrierTitle')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <Table<CarrierTypeRow> size="small" rowKey="type" loading={list.isFetching} columns={columns} dataSource={list.data ?? []} pagination={false} scroll={{ x: 800 }} />
      <TypeDialog target={editing && { name: name(editing), enabled: editing.enabled, remark: editing.remark }} onClose={() => setEditing(null)} onSave={(v) => save(editing!, v)} />
    </PageCard>
  );
}
