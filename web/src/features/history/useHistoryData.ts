/**
 * The history page's data: one sensor's readings, or a carrier's own value (without a device),
 * over the span at the chart's width; its zone, whether it has humidity, its statistics and its
 * chart (an exception's period highlighted).
 */
import { useMemo } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { historyApi, sensorMeasuresHumidity } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { offsetMinutes } from '../../lib/format';
import { buildChartOption } from './chartOption';
import { hasHumidity, seriesStats, type Zone } from './historyLogic';

const NO_ZONE: Zone = { tempMin: null, tempMax: null, humMin: null, humMax: null };

interface Args {
  deviceNo: string;
  carrierId: number | undefined;
  span: [number, number];
  maxPoints: number;
  timeZone: string | null;
  /** An exception's period to highlight (0: none; an open one ends now). */
  ex: [number, number];
}

export function useHistoryData({ deviceNo, carrierId, span: [start, end], maxPoints, timeZone, ex: [exStart, exEnd] }: Args) {
  const { t } = useTranslation('history');
  const ofSensor = useCall(historyApi.history, { query: { deviceNo, start, end, maxPoints } }, { enabled: !!deviceNo && maxPoints > 0, placeholderData: keepPreviousData });
  const ofCarrier = useCall(
    historyApi.carrier,
    { query: { carrierId: carrierId ?? 0, start, end, maxPoints } },
    { enabled: !deviceNo && !!carrierId && maxPoints > 0, placeholderData: keepPreviousData },
  );
  const carrierView = !deviceNo && !!carrierId;
  const q = carrierView ? ofCarrier : ofSensor;

  const points = useMemo(() => q.data?.points ?? [], [q.data]);
  const zone = q.data?.zone ?? NO_ZONE;
  const withHum = (ofSensor.data && !carrierView ? sensorMeasuresHumidity(ofSensor.data.type) : false) || hasHumidity(points);
  const tempStats = useMemo(() => seriesStats(points, 'temp'), [points]);
  const humStats = useMemo(() => seriesStats(points, 'hum'), [points]);

  const option = useMemo(
    () =>
      buildChartOption({
        points,
        zone,
        withHum,
        offsetMin: offsetMinutes(timeZone),
        span: [start, end],
        highlight: exStart > 0 ? { from: exStart, to: exEnd > 0 ? exEnd : Math.min(end, Date.now()), label: t('exception') } : undefined,
        labels: { temp: t('temp'), hum: t('hum'), tempZone: t('tempZone'), humZone: t('humZone') },
      }),
    [points, zone, withHum, timeZone, start, end, exStart, exEnd, t],
  );

  return { q, carrier: ofCarrier.data, carrierView, points, zone, withHum, tempStats, humStats, option };
}

export type HistoryData = ReturnType<typeof useHistoryData>;
