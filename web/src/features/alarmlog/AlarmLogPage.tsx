/** /noti/alarmLog: every change of a carrier's alarm switch, who and when (spec §2). */
import { useMemo, useState } from 'react';
import { Tag, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { alarmLogApi } from '@coldwatch/contract';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type SearchField } from '../../ui';
import { formatInZone } from '../../lib/format';
import { carrierTypeLabel } from '../carrier/carrierLabels';

export default function AlarmLogPage() {
  const { t } = useTranslation('carrier');
  const { user } = useAuth();
  const navigate = useNavigate();
  const tz = user?.timeZone ?? null;
  const [filters, setFilters] = useState<{ carrierName?: string; operator?: string; alarmOn?: 'true' | 'false'; startTime?: number; endTime?: number }>({});
  const params = useMemo(() => ({ ...filters }), [filters]);
  const fields: SearchField[] = [
    { name: 'carrierName', type: 'input', label: t('log.carrier'), width: 150 },
    { name: 'operator', type: 'input', label: t('log.operator'), width: 120 },
    { name: 'alarmOn', type: 'select', label: t('log.switch'), width: 110, options: [{ value: 'true', label: t('alarm.on') }, { value: 'false', label: t('alarm.off') }] },
    { name: 'range', type: 'datetimeRange', label: t('log.time') },
  ];
  return (
    <PageCard>
      <SearchBar
        fields={fields}
        onSearch={(v) => {
          const r = v.range as [number, number] | undefined;
          setFilters({ carrierName: v.carrierName as string, operator: v.operator as string, alarmOn: v.alarmOn as 'true' | 'false', startTime: r?.[0], endTime: r?.[1] });
        }}
      />
      <PagedTable
        route={alarmLogApi.page}
        params={params}
        size="small"
        rowKey="id"
        locale={{ emptyText: t('log.empty') }}
        scroll={{ x: 800 }}
        columns={[
          { title: t('log.time'), dataIndex: 'time', width: 170, render: (v: number) => formatInZone(v, tz) },
          {
            title: t('log.carrier'),
            dataIndex: 'carrierName',
            width: 180,
            render: (v: string, r: { carrierId: number | null }) => (r.carrierId ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{v}</Typography.Link> : <Typography.Text delete>{v}</Typography.Text>),
          },
          { title: t('col.type'), dataIndex: 'carrierType', width: 110, render: (v: number | null) => (v ? carrierTypeLabel(t, v) : '--') },
          { title: t('col.scene'), dataIndex: 'sceneLabel', width: 140, render: (v: string | null) => v ?? '--' },
          { title: t('log.switch'), dataIndex: 'alarmOn', width: 100, render: (v: boolean) => (v ? <Tag color="green">{t('alarm.on')}</Tag> : <Tag color="red">{t('alarm.off')}</Tag>) },
          { title: t('log.operator'), dataIndex: 'operator', width: 120 },
          ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140 }] : []),
        ]}
      />
    </PageCard>
  );
}
