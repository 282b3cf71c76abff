import { useMemo } from 'react';
import { Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { historyApi, sensorKindOf, sensorMeasuresHumidity } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { fromWall, offsetMinutes, toWall } from '../../lib/format';
import { buildChartOption } from './chartOption';
import { EChart } from './EChart';
import { hasHumidity, quickRange } from './historyLogic';

const NO_ZONE = { tempMin: null, tempMax: null, humMin: null, humMax: null };

/**
 * Today's readings of one device on the customer's wall clock (carrier and device detail pages).
 * A gas detector's chart is its concentration in ppm, a door magnet's its door (1 open, 0 closed).
 */
export function DayChart({ deviceNo, timeZone, height = 260 }: { deviceNo: string; timeZone: string | null; height?: number }) {
  const { t } = useTranslation('history');
  const [start, end] = useMemo(() => {
    const [s, e] = quickRange('today', toWall(Date.now(), timeZone));
    return [fromWall(s, timeZone), fromWall(e, timeZone)];
  }, [timeZone]);
  const q = useCall(historyApi.history, { query: { deviceNo, start, end, maxPoints: 600 } }, { refetchInterval: 60_000 });
  const option = useMemo(() => {
    const raw = q.data?.points ?? [];
    const kind = q.data ? sensorKindOf(q.data.type) : 'sensor';
    const other = kind === 'gas' ? 'gas' : kind === 'magnet' ? 'door' : null;
    const labels = { temp: t('temp'), hum: t('hum'), tempZone: t('tempZone'), humZone: t('humZone') };
    if (other) {
      // Its one value in the first series; the carrier's temperature zone is not its zone.
      const points = raw.map((p) => ({ ...p, temp: p[other], hum: null }));
      return buildChartOption({ points, zone: NO_ZONE, withHum: false, offsetMin: offsetMinutes(timeZone), span: [start, end], labels: { ...labels, temp: t(other) }, unit: other === 'gas' ? 'ppm' : '' });
    }
    return buildChartOption({
      points: raw,
      zone: q.data?.zone ?? NO_ZONE,
      withHum: (q.data ? sensorMeasuresHumidity(q.data.type) : false) || hasHumidity(raw),
      offsetMin: offsetMinutes(timeZone),
      span: [start, end],
      labels,
    });
  }, [q.data, timeZone, start, end, t]);
  if (q.isPending) return <Spin style={{ display: 'block', padding: 40 }} />;
  if (!q.data?.points.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noDataToday')} />;
  return <EChart option={option} height={height} />;
}
