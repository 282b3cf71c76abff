/** /RelayDetail?id=: one relay (spec §2 hidden detail route): its state, output, running switch, bindings and switching log. */
import { useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Button, Card, Descriptions, Empty, Space, Spin, Typography } from 'antd';
import { PoweroffOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { relayApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PageCard } from '../../ui';
import { formatInZone } from '../../lib/format';
import { DeviceStatus } from '../device/DeviceStatus';
import { SwitchDialog } from './SwitchDialog';
import { OutputTag, SwitchLogTable, SwitchTag } from './relayParts';

export default function RelayDetailPage() {
  const { t } = useTranslation('relay');
  const { user, can } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const [switching, setSwitching] = useState(false);
  const [logKey, setLogKey] = useState(0);
  const q = useCall(relayApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 5_000 });
  if (!id) return <PageCard><Empty description={t('noId')} /></PageCard>;
  if (q.isError) return <PageCard><Alert type="error" showIcon title={t('notFound')} /></PageCard>;
  if (!q.data) return <Spin style={{ display: 'block', padding: 80 }} />;
  const r = q.data;
  const tz = user?.timeZone;
  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <PageCard
        title={<Space>{t('detailTitle')}<Typography.Text code>{r.devNo}</Typography.Text>{r.name}</Space>}
        extra={can('editRelay') && <Button icon={<PoweroffOutlined />} disabled={r.status === 2} onClick={() => setSwitching(true)}>{t('switch')}</Button>}
      >
        <Descriptions
          bordered
          size="small"
          column={{ xs: 1, md: 2, xl: 3 }}
          items={[
            { key: 'status', label: t('col.status'), children: <DeviceStatus status={r.status} lastSeen={null} tz={null} /> },
            { key: 'output', label: t('col.output'), children: <OutputTag row={r} /> },
            { key: 'outputAt', label: t('outputAt'), children: r.outputAt ? formatInZone(r.outputAt, r.tz) : '--' },
            { key: 'switch', label: t('col.switch'), span: 2, children: <SwitchTag row={r} tz={tz} /> },
            { key: 'type', label: t('col.type'), children: t(`type.${r.type}`, { defaultValue: r.type }) },
            { key: 'mac', label: t('col.mac'), children: r.mac || '--' },
            { key: 'interval', label: t('col.reportInterval'), children: `${r.reportInterval} s` },
            { key: 'tz', label: t('col.tz'), children: `UTC${r.tz}` },
            { key: 'carrier', label: t('col.carrier'), children: r.carrierName ? <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.carrierId}`)}>{r.carrierName}</Typography.Link> : t('unbound') },
            { key: 'gateway', label: t('col.gateway'), children: <Typography.Link onClick={() => navigate(`/GateWayDetail?id=${r.gatewayId}`)}>{`${r.gatewaySn} · ${r.gatewayName}`}</Typography.Link> },
          ]}
        />
      </PageCard>
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
    </Space>
  );
}
