/**
 * /historyData?deviceNo=…[&start=&end=] : one sensor's readings over a span — a line chart with
 * the zone drawn as a band, the span's min/max/average, and the points as a paged table.
 * /historyData?carrierId=… without a device: the carrier's own value (its sample mode over its
 * sensors, what the board shows and the alarms judge), the same way.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { keepPreviousData } from '@tanstack/react-query';
import { Alert, Button, Card, DatePicker, Empty, Segmented, Spin, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { LineChartOutlined, ZoomInOutlined } from '@ant-design/icons';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, historyApi, PAGE_SIZES, sensorMeasuresHumidity, type SampleMode } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { fmtValue, formatInZone, fromWall, offsetMinutes, rangeState, RANGE_COLORS, toWall } from '../../lib/format';
import { DevicePicker } from './DevicePicker';
import { EChart } from './EChart';
import { buildChartOption } from './chartOption';
import {
  hasHumidity,
  maxPointsForWidth,
  QUICK_RANGES,
  quickRange,
  seriesStats,
  type HistoryPoint,
  type QuickRange,
  type Stats,
  type Zone,
} from './historyLogic';
import './history.css';

const NO_ZONE: Zone = { tempMin: null, tempMax: null, humMin: null, humMax: null };

/** A picked (wall-clock) span as instants. */
const instantsOf = (r: [Dayjs, Dayjs], tz: string | null): [number, number] => [fromWall(r[0], tz), fromWall(r[1], tz)];

/** The chart width in buckets of 200 px, so a small resize does not refetch. */
const bucket = (w: number) => Math.max(200, Math.round(w / 200) * 200);

export default function HistoryDataPage() {
  const { t } = useTranslation('history');
  const { t: tc } = useTranslation('carrier');
  const { user } = useAuth();
  const timeZone = user?.timeZone ?? null;
  const [params, setParams] = useSearchParams();
  const deviceNo = params.get('deviceNo')?.trim() ?? '';
  const [quick, setQuick] = useState<QuickRange | undefined>(params.get('start') ? undefined : 'h24');
  // The span as instants (UTC ms); the picker shows it on the customer's wall clock.
  const [range, setRange] = useState<[number, number]>(() => {
    const s = Number(params.get('start'));
    const e = Number(params.get('end'));
    return s > 0 ? [s, e > 0 ? e : Date.now()] : instantsOf(quickRange('h24', toWall(Date.now(), timeZone)), timeZone);
  });
  const [width, setWidth] = useState(0);
  const carrierId = Number(params.get('carrierId')) || undefined;

  // The page stays mounted in its tab: a new link (another device, another window) re-applies.
  // Coming from an exception: its period is highlighted on the chart.
  const exStart = Number(params.get('exStart')) || 0;
  const exEnd = Number(params.get('exEnd')) || 0;
  const startParam = params.get('start');
  const endParam = params.get('end');
  useEffect(() => {
    const s = Number(startParam);
    const e = Number(endParam);
    if (s > 0) {
      setQuick(undefined);
      setRange([s, e > 0 ? e : Date.now()]);
    }
  }, [startParam, endParam]);

  const [start, end] = range;
  const maxPoints = width ? maxPointsForWidth(bucket(width)) : 0;

  const ofSensor = useCall(historyApi.history, { query: { deviceNo, start, end, maxPoints } }, { enabled: !!deviceNo && maxPoints > 0, placeholderData: keepPreviousData });
  const ofCarrier = useCall(
    historyApi.carrier,
    { query: { carrierId: carrierId ?? 0, start, end, maxPoints } },
    { enabled: !deviceNo && !!carrierId && maxPoints > 0, placeholderData: keepPreviousData },
  );
  const carrierView = !deviceNo && !!carrierId;
  const q = carrierView ? ofCarrier : ofSensor;
  const modeName = (m: SampleMode) => tc(`sampleMode.${m}`);
  const carrierTitle = ofCarrier.data ? `${ofCarrier.data.name} · ${t('carrierValue', { mode: modeName(ofCarrier.data.mode) })}` : undefined;

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

  const pickQuick = (k: QuickRange) => {
    setQuick(k);
    setRange(instantsOf(quickRange(k, toWall(Date.now(), timeZone)), timeZone));
  };

  const onDevice = (v: string) => {
    const next = new URLSearchParams(params);
    if (v.trim()) next.set('deviceNo', v.trim());
    else next.delete('deviceNo');
    setParams(next);
  };

  const onWidth = useCallback((w: number) => setWidth(w), []);
  // Zoomed into a downsampled series: offer the zoomed span at full detail. Axis values carry the zone shift.
  const [zoomed, setZoomed] = useState<[number, number] | null>(null);
  const shift = (offsetMinutes(timeZone) ?? 0) * 60_000;
  const onZoom = useCallback((w: [number, number] | null) => setZoomed(w ? [Math.round(w[0] - shift), Math.round(w[1] - shift)] : null), [shift]);
  useEffect(() => setZoomed(null), [start, end, deviceNo, carrierId]);

  const rows = useMemo(() => [...points].sort((a, b) => b.ts - a.ts), [points]);
  const columns: ColumnsType<HistoryPoint> = [
    { title: t('col.time'), dataIndex: 'ts', width: 190, render: (ts: number) => formatInZone(ts, timeZone) },
    {
      title: t('col.temp'),
      dataIndex: 'temp',
      render: (v: number | null) => <span style={{ color: valueColor(v, zone.tempMin, zone.tempMax) }}>{fmtValue(v, 2)}</span>,
    },
    ...(withHum
      ? [
          {
            title: t('col.hum'),
            dataIndex: 'hum',
            render: (v: number | null) => <span style={{ color: valueColor(v, zone.humMin, zone.humMax) }}>{fmtValue(v, 2)}</span>,
          },
        ]
      : []),
    // A carrier's value has no battery or signal of its own.
    ...(carrierView
      ? []
      : [
          { title: t('col.volt'), dataIndex: 'volt', render: (v: number | null) => fmtValue(v, 2) },
          { title: t('col.rssi'), dataIndex: 'rssi', render: (v: number | null) => fmtValue(v, 0) },
        ]),
  ];

  return (
    <div className="cw-his-page">
      <div className="cw-his-toolbar">
        <Typography.Text>{t('device')}</Typography.Text>
        <DevicePicker value={deviceNo} carrierId={carrierId} carrierLabel={ofCarrier.data ? t('carrierValueShort') + ` · ${modeName(ofCarrier.data.mode)}` : undefined} onChange={onDevice} />
        <Segmented<QuickRange | ''>
          value={quick ?? ''}
          onChange={(k) => k && pickQuick(k)}
          options={QUICK_RANGES.map((k) => ({ value: k, label: t(`quick.${k}`) }))}
        />
        <DatePicker.RangePicker
          showTime={{ format: 'HH:mm' }}
          format="YYYY-MM-DD HH:mm"
          value={[toWall(start, timeZone), toWall(end, timeZone)]}
          allowClear={false}
          disabledDate={(d) => d.isAfter(toWall(Date.now(), timeZone).endOf('day'))}
          presets={(['week', 'month', 'quarter'] as const).map((k) => ({ label: t(`quick.${k}`), value: () => quickRange(k, toWall(Date.now(), timeZone)) }))}
          onChange={(v) => {
            if (v && v[0] && v[1]) {
              setQuick(undefined);
              setRange(instantsOf([v[0], v[1]], timeZone));
            }
          }}
        />
      </div>

      {!deviceNo && !carrierView ? (
        <Card>
          <Empty image={<LineChartOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />} description={t('noDevice')} />
        </Card>
      ) : (
        <>
          <Card
            size="small"
            title={
              <span>
                {carrierView ? <span>{carrierTitle}</span> : <span className="cw-his-devno">{deviceNo}</span>}
                {carrierView && ofCarrier.data && ofCarrier.data.devNos.length > 0 && (
                  <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontWeight: 'normal' }}>
                    {t('carrierSensors', { list: ofCarrier.data.devNos.join(', ') })}
                  </Typography.Text>
                )}
                {q.data?.downsampled && (
                  <Tag color="processing" style={{ marginInlineStart: 8 }}>
                    {t('downsampledShort')}
                  </Tag>
                )}
                {q.data?.downsampled && zoomed && (
                  <Button
                    size="small"
                    type="primary"
                    ghost
                    icon={<ZoomInOutlined />}
                    onClick={() => {
                      setQuick(undefined);
                      setRange(zoomed);
                    }}
                  >
                    {t('zoomDetail')}
                  </Button>
                )}
              </span>
            }
            extra={
              <span className="cw-his-zones">
                {(zone.tempMin !== null || zone.tempMax !== null) && (
                  <span>
                    {t('tempZone')}: {fmtValue(zone.tempMin)} ~ {fmtValue(zone.tempMax)} °C
                  </span>
                )}
                {withHum && (zone.humMin !== null || zone.humMax !== null) && (
                  <span>
                    {t('humZone')}: {fmtValue(zone.humMin)} ~ {fmtValue(zone.humMax)} %RH
                  </span>
                )}
                {timeZone && <span>{t('timeZone', { tz: timeZone })}</span>}
              </span>
            }
          >
            {q.data?.downsampled && <Alert className="cw-his-note" type="info" showIcon title={t('downsampled', { count: points.length, total: q.data.total ?? points.length })} />}
            {q.isError && (
              <Alert
                className="cw-his-note"
                type="error"
                showIcon
                title={`${t('loadFailed')}: ${errorMessage(q.error, t)}`}
                action={
                  <Button size="small" onClick={() => void q.refetch()}>
                    {t('query')}
                  </Button>
                }
              />
            )}
            <Spin spinning={q.isFetching}>
              <div style={{ position: 'relative' }}>
                <EChart option={option} height={400} onWidth={onWidth} onZoom={onZoom} />
                {!q.isFetching && q.isSuccess && points.length === 0 && (
                  <div className="cw-his-empty">
                    <Empty description={t('noData')} />
                  </div>
                )}
              </div>
            </Spin>
          </Card>

          <div className="cw-his-stats">
            <StatBlock title={`${t('temp')} (°C)`} stats={tempStats} zoneMin={zone.tempMin} zoneMax={zone.tempMax} timeZone={timeZone} />
            {withHum && <StatBlock title={`${t('hum')} (%RH)`} stats={humStats} zoneMin={zone.humMin} zoneMax={zone.humMax} timeZone={timeZone} />}
          </div>

          <Card size="small" title={t('points')}>
            <Table<HistoryPoint>
              size="small"
              rowKey="ts"
              columns={columns}
              dataSource={rows}
              loading={q.isFetching}
              pagination={{ defaultPageSize: DEFAULT_PAGE_SIZE, pageSizeOptions: PAGE_SIZES.map(String), showSizeChanger: true, showLessItems: true }}
            />
          </Card>
        </>
      )}
    </div>
  );
}

function valueColor(v: number | null, min: number | null, max: number | null) {
  const s = rangeState(v, min, max);
  return s === 'high' || s === 'low' ? RANGE_COLORS[s] : undefined;
}

function StatBlock({ title, stats, zoneMin, zoneMax, timeZone }: { title: string; stats: Stats; zoneMin: number | null; zoneMax: number | null; timeZone: string | null }) {
  const { t } = useTranslation('history');
  const at = (ts: number | null) => (ts ? t('stats.at', { time: formatInZone(ts, timeZone, 'MM-DD HH:mm') }) : '');
  return (
    <Card size="small" className="cw-his-stat" title={`${title} · ${t('stats.title')}`}>
      <div className="cw-his-stat-row">
        <div>
          <div className="cw-his-stat-label">{t('stats.min')}</div>
          <div className="cw-his-stat-value" style={{ color: valueColor(stats.min, zoneMin, zoneMax) }}>
            {fmtValue(stats.min, 2)}
          </div>
          <div className="cw-his-stat-at">{at(stats.minTs)}</div>
        </div>
        <div>
          <div className="cw-his-stat-label">{t('stats.max')}</div>
          <div className="cw-his-stat-value" style={{ color: valueColor(stats.max, zoneMin, zoneMax) }}>
            {fmtValue(stats.max, 2)}
          </div>
          <div className="cw-his-stat-at">{at(stats.maxTs)}</div>
        </div>
        <div>
          <div className="cw-his-stat-label">{t('stats.avg')}</div>
          <div className="cw-his-stat-value">{fmtValue(stats.avg, 2)}</div>
          <div className="cw-his-stat-at">&nbsp;</div>
        </div>
        <div>
          <div className="cw-his-stat-label">{t('stats.count')}</div>
          <div className="cw-his-stat-value">{stats.count}</div>
          <div className="cw-his-stat-at">&nbsp;</div>
        </div>
      </div>
    </Card>
  );
}
