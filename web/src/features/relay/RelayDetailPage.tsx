/** /RelayDetail?id=: one relay (spec §2 hidden detail route): its state, output, running switch, bindings and switching log. */
import { useState } from 'react';
import { Button, Card } from 'antd';
import { PoweroffOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { relayApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { CarrierLink, DeviceCard, DeviceDetail, GatewayLink, useDetailId } from '../device/DeviceDetail';
import { DeviceStatus } from '../device/DeviceStatus';
import { SwitchDialog } from './SwitchDialog';
import { OutputTag, SwitchLogTable, SwitchTag } from './relayParts';

export default function RelayDetailPage() {
  const { t } = useTranslation('relay');
  const { user, can } = useAuth();
  const id = useDetailId();
  const [switching, setSwitching] = useState(false);
  const [logKey, setLogKey] = useState(0);
  const q = useCall(relayApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 5_000 });
  const tz = user?.timeZone;
  return (
    <DeviceDetail id={id} query={q} noId={t('noId')} notFound={t('notFound')}>
      {(r) => (
        <>
          <DeviceCard
            kind={t('detailTitle')}
            number={r.devNo}
            name={r.name}
            extra={
              can('editRelay') && (
                <Button icon={<PoweroffOutlined />} disabled={r.status === 2} onClick={() => setSwitching(true)}>
                  {t('switch')}
                </Button>
              )
            }
            items={[
              { key: 'status', label: t('col.status'), children: <DeviceStatus status={r.status} lastSeen={null} tz={null} /> },
              { key: 'output', label: t('col.output'), children: <OutputTag row={r} /> },
              { key: 'outputAt', label: t('outputAt'), children: r.outputAt ? formatInZone(r.outputAt, r.tz) : '--' },
              { key: 'switch', label: t('col.switch'), span: 2, children: <SwitchTag row={r} tz={tz} /> },
              { key: 'type', label: t('col.type'), children: t(`type.${r.type}`, { defaultValue: r.type }) },
              { key: 'mac', label: t('col.mac'), children: r.mac || '--' },
              { key: 'interval', label: t('col.reportInterval'), children: `${r.reportInterval} s` },
              { key: 'tz', label: t('col.tz'), children: `UTC${r.tz}` },
              { key: 'carrier', label: t('col.carrier'), children: <CarrierLink id={r.carrierId} name={r.carrierName} unbound={t('unbound')} /> },
              { key: 'gateway', label: t('col.gateway'), children: <GatewayLink id={r.gatewayId}>{`${r.gatewaySn} · ${r.gatewayName}`}</GatewayLink> },
            ]}
          />
          <Card size="small" title={t('log.title')}>
            <SwitchLogTable key={logKey} relayId={r.id} />
          </Card>
          <SwitchDialog
            relays={switching ? [r] : null}
            onClose={() => setSwitching(false)}
            onDone={() => {
              setLogKey((k) => k + 1);
              void q.refetch();
            }}
          />
        </>
      )}
    </DeviceDetail>
  );
}
