/**
 * /sys/deviceType: the device-type catalogue (spec §3): every kind's types, what each reports,
 * how many of the caller's devices have it, and whether it is offered for new devices (editType
 * holders switch it, with a note). GET /service/share/getDeviceType; PUT /service/deviceType/update.
 */
import { useMemo, useState } from 'react';
import { Tabs, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_KINDS, typeApi, type DeviceKind, type DeviceTypeRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { PageCard } from '../../ui';
import { TypeTable } from './TypeTable';
import { typeName } from './typeLabels';

export default function DeviceTypePage() {
  const { t } = useTranslation('type');
  const list = useCall(typeApi.devices);
  const [kind, setKind] = useState<DeviceKind>('sensor');
  const rows = useMemo(() => (list.data ?? []).filter((d) => d.kind === kind), [list.data, kind]);
  const name = (r: DeviceTypeRow) => typeName(t, r.kind, r.code);

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
      <TypeTable<DeviceTypeRow>
        rows={rows}
        loading={list.isFetching}
        rowKey="code"
        columns={[
          { title: t('col.name'), key: 'name', width: 200, render: (_, r) => name(r) },
          { title: t('col.code'), dataIndex: 'code', width: 100, render: (v: string) => <code>{v}</code> },
          {
            title: t('col.readings'),
            dataIndex: 'readings',
            width: 260,
            render: (v: string[]) => (v.length ? v.map((k) => <Tag key={k}>{t(`reading.${k}`)}</Tag>) : <Typography.Text type="secondary">{t('none')}</Typography.Text>),
          },
        ]}
        name={name}
        update={(r, v) => call(typeApi.updateDevice, { body: { kind: r.kind, code: r.code, ...v } })}
        refetch={list.refetch}
        scrollX={900}
      />
    </PageCard>
  );
}
