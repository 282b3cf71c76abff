/** /BaseDetail?id= (spec §2, in its own window): one smart base, its state and bindings, and what its monitoring point reads now. */
import { Card } from 'antd';
import { useTranslation } from 'react-i18next';
import { baseApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { formatInZone } from '../../lib/format';
import { CarrierLink, DeviceCard, DeviceDetail, GatewayLink, useDetailId } from '../device/DeviceDetail';
import { DeviceStatus } from '../device/DeviceStatus';
import { PointValues } from '../device/PointValues';
import { typeName } from '../type/typeLabels';

export default function BaseDetailPage() {
  const { t } = useTranslation('base');
  const id = useDetailId();
  const q = useCall(baseApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 30_000 });
  return (
    <DeviceDetail id={id} query={q} noId={t('noId')} notFound={t('notFound')}>
      {(b) => (
        <>
          <DeviceCard
            kind={t('detailTitle')}
            number={b.devNo}
            name={b.name}
            items={[
              { key: 'status', label: t('col.status'), children: <DeviceStatus status={b.status} lastSeen={null} tz={null} /> },
              { key: 'type', label: t('col.type'), children: typeName(t, 'base', b.type) },
              { key: 'tz', label: t('col.tz'), children: `UTC${b.tz}` },
              { key: 'carrier', label: t('col.carrier'), children: <CarrierLink id={b.carrierId} name={b.carrierName} unbound={t('unbound')} /> },
              { key: 'gateway', label: t('col.gateway'), children: <GatewayLink id={b.gatewayId}>{`${b.gatewaySn} · ${b.gatewayName}`}</GatewayLink> },
              { key: 'created', label: t('col.createdAt'), children: formatInZone(b.createdAt, b.tz) },
              { key: 'description', label: t('col.description'), span: 3, children: b.description || '--' },
            ]}
          />
          {b.carrierId && (
            <Card size="small" title={t('reads', { name: b.carrierName })}>
              <PointValues carrierId={b.carrierId} />
            </Card>
          )}
        </>
      )}
    </DeviceDetail>
  );
}
