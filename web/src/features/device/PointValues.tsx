/** The latest values of a monitoring point's devices, large (display screens and smart bases show what their point reads). */
import { Space, Spin, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { dmApi, sensorKindOf } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';

/** A device's value as a screen shows it: temperature and humidity, a gas concentration, a door's state. */
function valueText(s: { type: string; temp: number | null; hum: number | null; gas: number | null; door: number | null }, t: TFunction): string {
  const kind = sensorKindOf(s.type);
  if (kind === 'gas') return s.gas === null ? '--' : `${s.gas.toFixed(1)} ppm`;
  if (kind === 'magnet') return s.door === null ? '--' : t(s.door ? 'magnet.open' : 'magnet.closed');
  return `${s.temp === null ? '--' : `${s.temp.toFixed(1)} °C`}${s.hum === null ? '' : ` · ${s.hum.toFixed(1)} %RH`}`;
}

export function PointValues({ carrierId }: { carrierId: number }) {
  const { t } = useTranslation('device');
  const point = useCall(dmApi.mpDetail, { query: { carrierId } }, { refetchInterval: 30_000 });
  if (!point.data) return <Spin />;
  return (
    <Space size={24} wrap>
      {point.data.sensors.map((s) => (
        <Space key={s.id} direction="vertical" size={0}>
          <Typography.Text type="secondary">{s.devNo}</Typography.Text>
          <Typography.Text strong style={{ fontSize: 20 }}>
            {valueText(s, t)}
          </Typography.Text>
        </Space>
      ))}
    </Space>
  );
}
