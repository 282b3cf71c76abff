/** What relay pages share: the output and running-switch tags and the switching log table. */
import { useMemo } from 'react';
import { Space, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { relayApi, type RelayRow, type SwitchLogRow } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PagedTable } from '../../ui';

/** The confirmed output, and "sending" while a command waits for the gateway's ack. */
export function OutputTag({ row }: { row: Pick<RelayRow, 'output' | 'pending'> }) {
  const { t } = useTranslation('relay');
  return (
    <Space size={4}>
      {row.output === null ? <Typography.Text type="secondary">--</Typography.Text> : <Tag color={row.output ? 'green' : 'default'}>{t(row.output ? 'on' : 'off')}</Tag>}
      {row.pending && <Tag color="processing">{t('sending')}</Tag>}
    </Space>
  );
}

/** The running switch: its mode and target, until when. */
export function SwitchTag({ row, tz }: { row: Pick<RelayRow, 'switch'>; tz?: string }) {
  const { t } = useTranslation('relay');
  const s = row.switch;
  if (!s) return <Typography.Text type="secondary">{t('noSwitch')}</Typography.Text>;
  return (
    <Space size={4} wrap>
      <Tag color={s.mode === 'intelligent' ? 'purple' : s.mode === 'direct' ? 'orange' : 'blue'}>{t(`mode.${s.mode}`)}</Tag>
      <span>{s.mode === 'intelligent' ? t(s.conditionReached ? 'conditionReached' : 'conditionWaiting') : t(s.turnOn ? 'on' : 'off')}</span>
      <Typography.Text type="secondary">{s.endsAt ? t('until', { at: formatInZone(s.endsAt, tz, 'MM-DD HH:mm:ss') }) : t('noExpiry')}</Typography.Text>
    </Space>
  );
}

/** The switching log (§4: how each switch was asked for, how it ended, its result), one relay's or all. */
export function SwitchLogTable({ relayId, devNo }: { relayId?: number; devNo?: string }) {
  const { t } = useTranslation('relay');
  const { user } = useAuth();
  const tz = user?.timeZone;
  const params = useMemo(() => ({ relayId, devNo }), [relayId, devNo]);
  const columns: ColumnsType<SwitchLogRow> = [
    { title: t('log.startedAt'), dataIndex: 'startedAt', width: 160, render: (v: number) => formatInZone(v, tz, 'YYYY-MM-DD HH:mm:ss') },
    ...(relayId ? [] : [{ title: t('col.devNo'), dataIndex: 'devNo', width: 120, render: (v: string) => <Typography.Text code>{v}</Typography.Text> }]),
    { title: t('log.mode'), dataIndex: 'mode', width: 110, render: (v: string) => t(`mode.${v}`) },
    { title: t('log.target'), key: 'target', width: 120, render: (_, r) => (r.mode === 'intelligent' ? t(r.conditionReached ? 'conditionReached' : 'conditionNotReached') : t(r.turnOn ? 'on' : 'off')) },
    { title: t('log.cancelTime'), dataIndex: 'cancelAfterS', width: 110, render: (v: number | null) => (v ? `${v} s` : t('noExpiry')) },
    { title: t('log.endedAt'), dataIndex: 'endedAt', width: 160, render: (v: number | null) => (v ? formatInZone(v, tz, 'YYYY-MM-DD HH:mm:ss') : <Tag color="processing">{t('running')}</Tag>) },
    { title: t('log.endKind'), dataIndex: 'endKind', width: 130, render: (v: string | null) => (v ? t(`end.${v}`) : '--') },
    { title: t('log.result'), dataIndex: 'result', width: 150, render: (v: string) => t(`result.${v}`) },
    { title: t('log.operator'), dataIndex: 'operator', width: 110 },
    { title: t('log.endedBy'), dataIndex: 'endedBy', width: 110, render: (v: string | null, r) => v ?? (r.endedAt ? t('system') : '--') },
  ];
  return <PagedTable route={relayApi.switchLog} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('log.empty') }} scroll={{ x: 1200 }} />;
}
