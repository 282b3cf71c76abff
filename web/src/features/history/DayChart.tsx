import { useMemo } from 'react';
import { Empty, Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { historyApi, sensorMeasuresHumidity } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { fromWall, offsetMinutes, toWall } from '../../lib/format';
import { buildChartOption } from './chartOption';
import { EChart } from './EChart';
import { hasHumidity, quickRange } from './historyLogic';

/** Today's readings of one device on the customer's wall clock (carrier and device detail pages). */
export function DayChart({ deviceNo, timeZone, height = 260 }: { deviceNo: string; timeZone: string | null; height?: number }) {
  const { t } = useTranslation('history');
  const [start, end] = useMemo(() => {
    const [s, e] = quickRange('today', toWall(Date.now(), timeZone));
    return [fromWall(s, timeZone), fromWall(e, timeZone)];
  }, [timeZone]);
  const q = useCall(historyApi.history, { query: { deviceNo, start, end, maxPoints: 600 } }, { refetchInterval: 60_000 });
  const option = useMemo(() => {
    const points = q.data?.points ?? [];
    return buildChartOption({
      points,
      zone: q.data?.zone ?? { tempMin: null, tempMax: null, humMin: null, humMax: null },
      withHum: (q.data ? sensorMeasuresHumidity(q.data.type) : false) || hasHumidity(points),
      offsetMin: offsetMinutes(timeZone),
      span: [start, end],
      labels: { temp: t('temp'), hum: t('hum'), tempZone: t('tempZone'), humZone: t('humZone') },
    });
  }, [q.data, timeZone, start, end, t]);
  if (q.isPending) return <Spin style={{ display: 'block', padding: 40 }} />;
  if (!q.data?.points.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('noDataToday')} />;
  return <EChart option={option} height={height} />;
}
