import { useMemo } from 'react';
import { Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { sensorMeasuresHumidity, type SensorType } from '@coldwatch/contract';
import { offsetMinutes } from '../../lib/format';
import { buildChartOption } from './chartOption';
import { EChart } from './EChart';
import { hasHumidity, type HistoryPoint, type Zone } from './historyLogic';

/** What the chart needs of a sensor: its type, readings and zone (a trip's sensor, a query code's). */
export interface ChartedSensor {
  type: SensorType;
  points: HistoryPoint[];
  zone: Zone;
}

/**
 * One sensor's readings over a span, on the customer's clock: the history chart with its zone
 * lines and spec §9 colours, for the pages that show a record to someone outside the console's
 * history page (a trip, a query code).
 */
export function SensorChart({ sensor, span, timeZone, height = 240 }: { sensor: ChartedSensor; span: [number, number]; timeZone?: string | null; height?: number }) {
  const { t } = useTranslation('history');
  const option = useMemo(
    () =>
      buildChartOption({
        points: sensor.points,
        zone: sensor.zone,
        withHum: sensorMeasuresHumidity(sensor.type) || hasHumidity(sensor.points),
        offsetMin: offsetMinutes(timeZone),
        span,
        labels: { temp: t('temp'), hum: t('hum'), tempZone: t('tempZone'), humZone: t('humZone') },
      }),
    [sensor, span, timeZone, t],
  );
  if (!sensor.points.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />;
  return <EChart option={option} height={height} />;
}
