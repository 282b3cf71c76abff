/** /DisplayDetail?id=: one display screen (spec §2 hidden detail route): state, the point it shows with today's chart, its alarm settings. */
import { Card, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { formatInZone } from '../../lib/format';
import { CarrierLink, DeviceCard, DeviceDetail, GatewayLink, useDetailId } from '../device/DeviceDetail';
import { DeviceStatus } from '../device/DeviceStatus';
import { PointValues } from '../device/PointValues';

export default function DisplayDetailPage() {
  const { t } = useTranslation('display');
  const id = useDetailId();
  const q = useCall(displayApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 30_000 });
  return (
    <DeviceDetail id={id} query={q} noId={t('noId')} notFound={t('notFound')}>
      {(d) => (
        <>
          <DeviceCard
            kind={t('detailTitle')}
            number={d.devNo}
            name={d.name}
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
              { key: 'carrier', label: t('col.carrier'), children: <CarrierLink id={d.carrierId} name={d.carrierName} unbound={t('unbound')} /> },
              { key: 'gateway', label: t('col.gateway'), span: 2, children: <GatewayLink id={d.gatewayId}>{`${d.gatewaySn} · ${d.gatewayName}`}</GatewayLink> },
            ]}
          />
          {d.carrierId && (
            <Card size="small" title={t('shows', { name: d.carrierName })}>
              <PointValues carrierId={d.carrierId} />
            </Card>
          )}
        </>
      )}
    </DeviceDetail>
  );
}
