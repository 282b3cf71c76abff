/** /DisplayDetail?id=: one display screen (spec §2 hidden detail route): state, the point it shows with today's chart, its alarm settings. */
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Card, Descriptions, Empty, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { PageCard } from '../../ui';
import { formatInZone } from '../../lib/format';
import { DeviceStatus } from '../device/DeviceStatus';
import { PointValues } from '../device/PointValues';

export default function DisplayDetailPage() {
  const { t } = useTranslation('display');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const q = useCall(displayApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 30_000 });
  if (!id) return <PageCard><Empty description={t('noId')} /></PageCard>;
  if (q.isError) return <PageCard><Alert type="error" showIcon title={t('notFound')} /></PageCard>;
  if (!q.data) return <Spin style={{ display: 'block', padding: 80 }} />;
  const d = q.data;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <PageCard title={<Space>{t('detailTitle')}<Typography.Text code>{d.devNo}</Typography.Text>{d.name}</Space>}>
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'status', label: t('col.status'), children: <DeviceStatus status={d.status} lastSeen={null} tz={null} /> },
            { key: 'nickname', label: t('col.nickname'), children: d.nickname || '--' },
            { key: 'type', label: t('col.type'), children: t(`type.${d.type}`, { defaultValue: d.type }) },
            { key: 'alarmOn', label: t('col.alarmOn'), children: <Tag color={d.alarmOn ? 'green' : 'default'}>{t(d.alarmOn ? 'on' : 'off')}</Tag> },
            { key: 'alarmDuration', label: t('col.alarmDuration'), children: `${d.alarmDuration} s` },
            { key: 'alarmInterval', label: t('col.alarmInterval'), children: `${d.alarmInterval} s` },
            { key: 'heartbeat', label: t('col.heartbeatInterval'), children: `${d.heartbeatInterval} s` },
            { key: 'tz', label: t('col.tz'), children: `UTC${d.tz}` },
            { key: 'created', label: t('col.createdAt'), children: formatInZone(d.createdAt, d.tz) },
            { key: 'carrier', label: t('col.carrier'), children: d.carrierName ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${d.carrierId}`)}>{d.carrierName}</Typography.Link> : t('unbound') },
            { key: 'gateway', label: t('col.gateway'), span: 2, children: <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${d.gatewayId}`)}>{`${d.gatewaySn} · ${d.gatewayName}`}</Typography.Link> },
          ]}
        />
      </PageCard>
      {d.carrierId && (
        <Card size="small" title={t('shows', { name: d.carrierName })}>
          <PointValues carrierId={d.carrierId} />
        </Card>
      )}
    </Space>
  );
}
