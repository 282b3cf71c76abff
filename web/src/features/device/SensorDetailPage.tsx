/**
 * /SensorDetail?id=, /GasDetail?id=: one sensor, door magnet or gas detector (spec §2 hidden
 * detail routes): state, latest values, its carrier and gateway, calibration, today's chart with
 * the way to its full history, and (radio sensors) its configuration and configuration log.
 */
import { useNavigate } from 'react-router';
import { useMemo, useState } from 'react';
import { Button, Card, Space } from 'antd';
import { LineChartOutlined, SettingOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { sensorApi, sensorKindOf } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { fmtValue, formatInZone } from '../../lib/format';
import { DayChart } from '../history/DayChart';
import { CarrierLink, DeviceCard, DeviceDetail, GatewayLink, useDetailId } from './DeviceDetail';
import { CalibrationTag, DeviceStatus } from './DeviceStatus';
import { DoorTag, SENSOR_KIND_DEFS } from './sensorKinds';
import { typeName } from '../type/typeLabels';
import { ConfigDialog } from './ConfigDialog';
import { ConfigLogTable } from './ConfigLogPage';

export default function SensorDetailPage() {
  const { t } = useTranslation('device');
  const { user, can } = useAuth();
  const [configuring, setConfiguring] = useState(false);
  // A new configuration shows in the log below: the table is made anew after it.
  const [logKey, setLogKey] = useState(0);
  const navigate = useNavigate();
  const id = useDetailId();
  const tz = user?.timeZone ?? null;
  const q = useCall(sensorApi.detail, { query: { id } }, { enabled: id > 0, refetchInterval: 30_000 });
  const logFilters = useMemo(() => ({ sensorId: id }), [id]);
  return (
    <DeviceDetail id={id} query={q} noId={t('noId')} notFound={t('notFound')}>
      {(s) => {
        const kind = sensorKindOf(s.type);
        const def = SENSOR_KIND_DEFS[kind];
        const value = (v: number | null, unit: string) => (v === null ? '--' : `${fmtValue(v, 2)} ${unit}`);
        const measured =
          kind === 'gas'
            ? [
                { key: 'gasCode', label: t('gas.gasCode'), children: s.gasCode ? typeName(t, 'gas', s.gasCode) : '--' },
                { key: 'gas', label: t('gas.value'), children: value(s.gas, 'ppm') },
              ]
            : kind === 'magnet'
              ? [{ key: 'door', label: t('magnet.door'), children: <DoorTag door={s.door} t={t} /> }]
              : [
                  { key: 'temp', label: t('sensor.temp'), children: value(s.temp, '°C') },
                  { key: 'hum', label: t('sensor.hum'), children: value(s.hum, '%RH') },
                ];
        return (
          <>
            <DeviceCard
              kind={t(`${def.texts}.detailTitle`)}
              number={s.devNo}
              extra={
                <Space>
                  {kind === 'sensor' && can('editSensor') && (
                    <Button icon={<SettingOutlined />} onClick={() => setConfiguring(true)}>
                      {t('config.button')}
                    </Button>
                  )}
                  <Button icon={<LineChartOutlined />} onClick={() => navigate(`/historyData?deviceNo=${encodeURIComponent(s.devNo)}`)}>
                    {t('action.history')}
                  </Button>
                </Space>
              }
              items={[
                { key: 'status', label: t('col.status'), children: <DeviceStatus status={s.status} lastSeen={s.lastTs} tz={s.tz} /> },
                { key: 'type', label: t('sensor.type'), children: t(`carrier:sensorType.${s.type}`, { defaultValue: s.type }) },
                ...measured,
                { key: 'last', label: t('col.lastSeen'), children: s.lastTs ? formatInZone(s.lastTs, s.tz) : '--' },
                { key: 'volt', label: t('sensor.volt'), children: value(s.volt, 'V') },
                { key: 'rssi', label: t('sensor.rssi'), children: s.rssi === null ? '--' : `${s.rssi} dBm` },
                { key: 'lqi', label: t('sensor.lqi'), children: s.lqi ?? '--' },
                { key: 'interval', label: t('sensor.sampleInterval'), children: `${s.sampleInterval} s` },
                ...(kind === 'sensor' ? [{ key: 'config', label: t('configStatus.title'), children: t(`configStatus.${s.configStatus}`) }] : []),
                { key: 'carrier', label: t('sensor.carrier'), children: <CarrierLink id={s.carrierId} name={s.carrierName} unbound={t('sensor.unbound')} /> },
                { key: 'gateway', label: t('sensor.gateway'), children: <GatewayLink id={s.gatewayId}>{`${s.gatewaySn} · ${s.gatewayName}`}</GatewayLink> },
                { key: 'tz', label: t('form.tz'), children: `UTC${s.tz}` },
                { key: 'calibExpiry', label: t('sensor.calibExpiry'), children: <CalibrationTag expiry={s.calibExpiry} /> },
                { key: 'calibNotice', label: t('sensor.calibNotice'), children: s.calibNotice ? formatInZone(s.calibNotice, s.tz, 'YYYY-MM-DD HH:mm') : '--' },
                { key: 'description', label: t('sensor.description'), children: s.description || '--' },
              ]}
            />
            <Card size="small" title={t(kind === 'gas' ? 'gas.today' : 'sensor.today')}>
              <DayChart deviceNo={s.devNo} timeZone={tz} />
            </Card>
            {kind === 'sensor' && (
              <Card size="small" title={t('configLog.title')}>
                <ConfigLogTable key={logKey} filters={logFilters} />
              </Card>
            )}
            <ConfigDialog sensors={configuring ? [s] : null} onClose={() => setConfiguring(false)} onDone={() => setLogKey((k) => k + 1)} />
          </>
        );
      }}
    </DeviceDetail>
  );
}
