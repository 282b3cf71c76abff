/**
 * /GateWayDetail?id=: one gateway (spec §2 hidden detail route): its settings, connection and
 * power, the sensors reporting through it with their latest values, and what to configure in it.
 */
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Button, Card, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { gatewayApi } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PagedTable } from '../../ui';
import { fmtValue, formatInZone } from '../../lib/format';
import { ConnectPanel } from '../wizard/WizardSteps';
import { CarrierLink, DeviceCard, DeviceDetail, useDetailId } from './DeviceDetail';
import { DeviceStatus } from './DeviceStatus';

const yesNo = (v: boolean | null, t: (k: string) => string) => (v === null ? '--' : v ? t('yes') : t('no'));

export default function GatewayDetailPage() {
  const { t } = useTranslation('device');
  const { user } = useAuth();
  const navigate = useNavigate();
  const id = useDetailId();
  const tz = user?.timeZone ?? null;
  const q = useCall(gatewayApi.withSensors, { params: { id } }, { enabled: id > 0, refetchInterval: 30_000 });
  const [secret, setSecret] = useState<string | undefined>();
  return (
    <DeviceDetail id={id} query={q} noId={t('noId')} notFound={t('notFound')}>
      {(g) => (
        <>
          <DeviceCard
            kind={t('gateway.detailTitle')}
            number={g.sn}
            items={[
              { key: 'status', label: t('col.status'), children: <DeviceStatus status={g.status} lastSeen={g.lastSeenAt} tz={g.tz} /> },
              { key: 'name', label: t('gateway.name'), children: g.name },
              { key: 'nickname', label: t('gateway.nickname'), children: g.nickname || '--' },
              { key: 'type', label: t('gateway.type'), children: t(`gatewayType.${g.type}`, { defaultValue: g.type }) },
              { key: 'carrier', label: t('gateway.carrier'), children: <CarrierLink id={g.carrierId} name={g.carrierName} unbound="--" /> },
              { key: 'lastSeen', label: t('col.lastSeen'), children: g.lastSeenAt ? formatInZone(g.lastSeenAt, g.tz) : '--' },
              { key: 'power', label: t('gateway.power'), children: g.power ? t(`power.${g.power}`, { defaultValue: g.power }) : '--' },
              { key: 'tcp', label: t('gateway.tcp'), children: yesNo(g.tcp, t) },
              { key: 'lte', label: t('gateway.lte'), children: yesNo(g.lte, t) },
              { key: 'flight', label: t('gateway.flight'), children: yesNo(g.flight, t) },
              { key: 'ip', label: t('gateway.ip'), children: g.ip ?? '--' },
              { key: 'wanIp', label: t('gateway.wanIp'), children: g.wanIp ?? '--' },
              { key: 'gps', label: t('gateway.gps'), children: g.lat !== null && g.lng !== null ? `${g.lat.toFixed(5)}, ${g.lng.toFixed(5)}` : '--' },
              { key: 'tz', label: t('form.tz'), children: `UTC${g.tz}` },
              { key: 'created', label: t('col.createdAt'), children: formatInZone(g.createdAt, g.tz) },
            ]}
          />
          <Card size="small" title={t('gateway.sensors', { count: g.sensors.length })}>
            <Table
              size="small"
              rowKey="id"
              dataSource={g.sensors}
              pagination={g.sensors.length > 15 ? { pageSize: 15 } : false}
              scroll={{ x: 700 }}
              locale={{ emptyText: t('gateway.noSensors') }}
              columns={[
                { title: t('col.status'), dataIndex: 'status', width: 100, render: (s: number, r) => <DeviceStatus status={s} lastSeen={r.lastTs} tz={tz} /> },
                { title: t('sensor.devNo'), dataIndex: 'devNo', render: (v: string, r) => <Typography.Link onClick={() => navigate(`/SensorDetail?id=${r.id}`)}>{v}</Typography.Link> },
                { title: t('sensor.type'), dataIndex: 'type', render: (v: string) => t(`carrier:sensorType.${v}`, { defaultValue: v }) },
                { title: t('sensor.temp'), dataIndex: 'temp', align: 'right', render: (v: number | null) => (v === null ? '--' : `${fmtValue(v)} °C`) },
                { title: t('sensor.hum'), dataIndex: 'hum', align: 'right', render: (v: number | null) => (v === null ? '--' : `${fmtValue(v)} %RH`) },
                { title: t('col.lastSeen'), dataIndex: 'lastTs', render: (v: number | null) => (v ? formatInZone(v, tz, 'MM-DD HH:mm:ss') : '--') },
              ]}
            />
          </Card>
          <Card size="small">
            <ConnectPanel sn={g.sn} secret={secret} gatewayId={g.id} onSecret={setSecret} />
            <Button type="link" style={{ paddingInline: 0 }} onClick={() => navigate('/device/gateway')}>
              {t('gateway.back')}
            </Button>
          </Card>
          <Card size="small" title={t('gateway.heartbeats')}>
            <HeartbeatTable gatewayId={g.id} tz={g.tz} />
          </Card>
        </>
      )}
    </DeviceDetail>
  );
}

/** The gateway's heartbeat history (spec §3), kept while the parameter is on. */
function HeartbeatTable({ gatewayId, tz }: { gatewayId: number; tz: string }) {
  const { t } = useTranslation('device');
  const params = useMemo(() => ({ gatewayId }), [gatewayId]);
  const yesNo = (v: boolean | null) => (v === null ? '--' : t(v ? 'yes' : 'no'));
  return (
    <PagedTable
      route={gatewayApi.heartbeats}
      params={params}
      size="small"
      rowKey="id"
      locale={{ emptyText: t('gateway.noHeartbeats') }}
      columns={[
        { title: t('gateway.heartbeatAt'), dataIndex: 'ts', width: 170, render: (v: number) => formatInZone(v, tz, 'YYYY-MM-DD HH:mm:ss') },
        { title: t('gateway.power'), dataIndex: 'power', width: 100, render: (v: string | null) => (v ? t(`power.${v}`, { defaultValue: v }) : '--') },
        { title: 'TCP', dataIndex: 'tcp', width: 70, render: yesNo },
        { title: 'LTE', dataIndex: 'lte', width: 70, render: yesNo },
        { title: t('gateway.flight'), dataIndex: 'flight', width: 90, render: yesNo },
        { title: 'IP', dataIndex: 'ip', width: 130, render: (v: string | null) => v ?? '--' },
        { title: t('gateway.wanIp'), dataIndex: 'wanIp', width: 140, render: (v: string | null) => v ?? '--' },
        { title: 'GPS', key: 'gps', render: (_: unknown, r: { lat: number | null; lng: number | null }) => (r.lat === null || r.lng === null ? '--' : `${r.lat.toFixed(4)}, ${r.lng.toFixed(4)}`) },
      ]}
      scroll={{ x: 900 }}
    />
  );
}
