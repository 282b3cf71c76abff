/** /BaseDetail?id= (spec §2, in its own window): one smart base, its state and bindings, and what its monitoring point reads now. */
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Card, Descriptions, Empty, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { baseApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { PageCard } from '../../ui';
import { formatInZone } from '../../lib/format';
import { DeviceStatus } from '../device/DeviceStatus';
import { PointValues } from '../device/PointValues';
import { typeName } from '../type/typeLabels';

export default function BaseDetailPage() {
  const { t } = useTranslation('base');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const q = useCall(baseApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 30_000 });
  if (!id) return <PageCard><Empty description={t('noId')} /></PageCard>;
  if (q.isError) return <PageCard><Alert type="error" showIcon title={t('notFound')} /></PageCard>;
  if (!q.data) return <Spin style={{ display: 'block', padding: 80 }} />;
  const b = q.data;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <PageCard title={<Space>{t('detailTitle')}<Typography.Text code>{b.devNo}</Typography.Text>{b.name}</Space>}>
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'status', label: t('col.status'), children: <DeviceStatus status={b.status} lastSeen={null} tz={null} /> },
            { key: 'type', label: t('col.type'), children: typeName(t, 'base', b.type) },
            { key: 'tz', label: t('col.tz'), children: `UTC${b.tz}` },
            { key: 'carrier', label: t('col.carrier'), children: b.carrierName ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${b.carrierId}`)}>{b.carrierName}</Typography.Link> : t('unbound') },
            { key: 'gateway', label: t('col.gateway'), children: <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${b.gatewayId}`)}>{`${b.gatewaySn} · ${b.gatewayName}`}</Typography.Link> },
            { key: 'created', label: t('col.createdAt'), children: formatInZone(b.createdAt, b.tz) },
            { key: 'description', label: t('col.description'), span: 3, children: b.description || '--' },
          ]}
        />
      </PageCard>
      {b.carrierId && (
        <Card size="small" title={t('reads', { name: b.carrierName })}>
          <PointValues carrierId={b.carrierId} />
        </Card>
      )}
    </Space>
  );
}
