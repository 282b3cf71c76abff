/**
 * /historyData?deviceNo=…[&start=&end=] : one sensor's readings over a span — a line chart with
 * the zone drawn as a band, the span's min/max/average, and the points as a paged table.
 * /historyData?carrierId=… without a device: the carrier's own value (its sample mode over its
 * sensors, what the board shows and the alarms judge), the same way. Also /probeHistory and
 * /carrierProbeHistory (spec §2). A period plays back on the chart at speed grades 1 to 5.
 */
import { useCallback, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Card, Empty, Table } from 'antd';
import { LineChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type SampleMode } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { HistoryChartCard } from './HistoryChartCard';
import { excludedAt, historyColumns } from './historyColumns';
import { maxPointsForWidth, type HistoryPoint } from './historyLogic';
import { useHistorySpan } from './historySpan';
import { HistoryToolbar } from './HistoryToolbar';
import { StatBlock } from './StatBlock';
import { useHistoryData } from './useHistoryData';
import { Playback } from '../../ui/Playback';
import { pointAt } from '../../ui/playback';
import { fmtValue } from '../../lib/format';
import './history.css';

/** The chart width in buckets of 200 px, so a small resize does not refetch. */
const bucket = (w: number) => Math.max(200, Math.round(w / 200) * 200);

export default function HistoryDataPage() {
  const { t } = useTranslation('history');
  const { t: tc } = useTranslation('carrier');
  const { user } = useAuth();
  const timeZone = user?.timeZone ?? null;
  const [params, setParams] = useSearchParams();
  const deviceNo = params.get('deviceNo')?.trim() ?? '';
  const span = useHistorySpan(params, timeZone);
  const [width, setWidth] = useState(0);
  const carrierId = Number(params.get('carrierId')) || undefined;
  // Coming from an exception: its period is highlighted on the chart.
  const ex: [number, number] = [Number(params.get('exStart')) || 0, Number(params.get('exEnd')) || 0];

  const [start, end] = span.range;
  const maxPoints = width ? maxPointsForWidth(bucket(width)) : 0;
  // Playback's moment (spec §9 speed grades): the chart up to it, its values beside the controls.
  const [cursor, setCursor] = useState<number | null>(null);
  const data = useHistoryData({ deviceNo, carrierId, span: span.range, maxPoints, timeZone, ex, cursor });
  const atCursor = cursor === null ? undefined : pointAt(data.points, cursor);
  const { carrier, carrierView, points, zone, withHum } = data;
  const modeName = (m: SampleMode) => tc(`sampleMode.${m}`);
  const carrierTitle = carrier ? `${carrier.name} · ${t('carrierValue', { mode: modeName(carrier.mode) })}` : undefined;

  const onDevice = (v: string) => {
    const next = new URLSearchParams(params);
    if (v.trim()) next.set('deviceNo', v.trim());
    else next.delete('deviceNo');
    setParams(next);
  };
  const onWidth = useCallback((w: number) => setWidth(w), []);

  const rows = useMemo(() => [...points].sort((a, b) => b.ts - a.ts), [points]);
  const columns = historyColumns(t, { timeZone, zone, withHum, carrierView, excluded: data.excluded });

  return (
    <div className="cw-his-page">
      <HistoryToolbar
        deviceNo={deviceNo}
        carrierId={carrierId}
        carrierLabel={carrier ? t('carrierValueShort') + ` · ${modeName(carrier.mode)}` : undefined}
        onDevice={onDevice}
        span={span}
        timeZone={timeZone}
      />

      {!deviceNo && !carrierView ? (
        <Card>
          <Empty image={<LineChartOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />} description={t('noDevice')} />
        </Card>
      ) : (
        <>
          <HistoryChartCard data={data} deviceNo={deviceNo} carrierTitle={carrierTitle} timeZone={timeZone} onWidth={onWidth} onSpan={span.pick} resetKey={`${start}:${end}:${deviceNo}:${carrierId}`} />
          <Card size="small">
            <Playback
              span={span.range}
              onCursor={setCursor}
              timeZone={timeZone}
              status={
                atCursor && (
                  <span className="cw-playback-values">
                    <span>{t('temp')} {fmtValue(atCursor.temp, 2)} °C</span>
                    {withHum && <span>{t('hum')} {fmtValue(atCursor.hum, 2)} %RH</span>}
                  </span>
                )
              }
            />
          </Card>

          <div className="cw-his-stats">
            <StatBlock title={`${t('temp')} (°C)`} stats={data.tempStats} zoneMin={zone.tempMin} zoneMax={zone.tempMax} timeZone={timeZone} />
            {withHum && <StatBlock title={`${t('hum')} (%RH)`} stats={data.humStats} zoneMin={zone.humMin} zoneMax={zone.humMax} timeZone={timeZone} />}
          </div>

          <Card size="small" title={t('points')}>
            <Table<HistoryPoint>
              size="small"
              rowKey="ts"
              columns={columns}
              rowClassName={(r) => (excludedAt(data.excluded, r.ts) ? 'cw-his-excluded' : '')}
              dataSource={rows}
              loading={data.q.isFetching}
              pagination={{ defaultPageSize: DEFAULT_PAGE_SIZE, pageSizeOptions: PAGE_SIZES.map(String), showSizeChanger: true, showLessItems: true }}
            />
          </Card>
        </>
      )}
    </div>
  );
}
