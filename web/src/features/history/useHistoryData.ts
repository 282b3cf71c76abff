/**
 * The history page's data: one sensor's readings, or a carrier's own value (without a device),
 * over the span at the chart's width; its zone, whether it has humidity, its statistics and its
 * chart (an exception's period highlighted).
 */
import { useMemo } from 'react';
import { keepPreviousData } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { historyApi, sensorMeasuresHumidity, statisticRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { offsetMinutes } from '../../lib/format';
import { buildChartOption } from './chartOption';
import { figureStats, hasHumidity, type Zone } from './historyLogic';

const NO_ZONE: Zone = { tempMin: null, tempMax: null, humMin: null, humMax: null };

interface Args {
  deviceNo: string;
  carrierId: number | undefined;
  span: [number, number];
  maxPoints: number;
  timeZone: string | null;
  /** An exception's period to highlight (0: none; an open one ends now). */
  ex: [number, number];
  /** Playback's moment (ui/Playback.tsx): the chart draws the period up to it; null draws it whole. */
  cursor?: number | null;
}

export function useHistoryData({ deviceNo, carrierId, span: [start, end], maxPoints, timeZone, ex: [exStart, exEnd], cursor = null }: Args) {
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
  // Periods its invalid rules excluded: shaded on the chart, marked in the table.
  const excluded = useMemo(() => q.data?.excluded ?? [], [q.data]);
  const withHum = (ofSensor.data && !carrierView ? sensorMeasuresHumidity(ofSensor.data.type) : false) || hasHumidity(points);
  // The span's figures are the server's over every reading (docs/statistics.md), of the carrier the
  // page shows or the sensor belongs to: the points are downsampled and cannot give them.
  const statCarrier = carrierView ? carrierId : (ofSensor.data?.carrierId ?? undefined);
  const figures = useCall(
    statisticRefs.view,
    { query: { carrierId: statCarrier ?? 0, startTime: start, endTime: end } },
    { enabled: !!statCarrier && end >= start, placeholderData: keepPreviousData },
  );
  const summary = statCarrier ? figures.data?.summary : undefined;
  const tempStats = useMemo(() => figureStats(summary?.temp, points, 'temp'), [summary, points]);
  const humStats = useMemo(() => figureStats(summary?.hum, points, 'hum'), [summary, points]);

  const shown = useMemo(() => (cursor === null ? points : points.filter((p) => p.ts <= cursor)), [points, cursor]);
  const option = useMemo(
    () =>
      buildChartOption({
        points: shown,
        zone,
        withHum,
        offsetMin: offsetMinutes(timeZone),
        span: [start, end],
        highlight: exStart > 0 ? { from: exStart, to: exEnd > 0 ? exEnd : Math.min(end, Date.now()), label: t('exception') } : undefined,
        excluded,
        labels: { temp: t('temp'), hum: t('hum'), tempZone: t('tempZone'), humZone: t('humZone'), excluded: t('excluded') },
      }),
    [shown, zone, withHum, timeZone, start, end, exStart, exEnd, excluded, t],
  );

  return { q, carrier: ofCarrier.data, carrierView, points, zone, withHum, tempStats, humStats, option, excluded };
}

export type HistoryData = ReturnType<typeof useHistoryData>;
