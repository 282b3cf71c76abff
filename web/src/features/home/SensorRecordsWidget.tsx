/**
 * Home widget "specified sensor records" (spec §2): the sensors the user picked on
 * /homepageset, their temperature over the last 24 hours (the history call, downsampled) and
 * their latest values, with each reading the live stream brings added as it commits.
 */
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { Empty, Table } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { historyRefs, type HistoryPoint, type HomeSetting } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useAuth } from '../../app/auth';
import { fmtValue, formatInZone } from '../../lib/format';
import { useLiveStream } from '../databoard/useLiveStream';
import { HomeChart } from './HomeChart';
import { asHomeOption } from './moreCharts';
import { WidgetCard } from './WidgetCard';
import { withLive, type Point } from './sensorRecordsLogic';

const DAY = 86_400_000;

export default function SensorRecordsWidget({ sensors }: { sensors: HomeSetting['sensors'] }) {
  const { t } = useTranslation('home');
  const { user } = useAuth();
  // The span is fixed when the widget opens (a stable cache key); live readings extend it.
  const [span] = useState(() => ({ start: Date.now() - DAY, end: Date.now() }));
  const [live, setLive] = useState<Record<string, Point[]>>({});
  const wanted = useMemo(() => new Set(sensors.map((s) => s.devNo)), [sensors]);
  useLiveStream((events) => {
    const add: Record<string, Point[]> = {};
    for (const e of events) if (e.type === 'reading' && wanted.has(e.data.devNo)) (add[e.data.devNo] ??= []).push({ ts: e.data.ts, temp: e.data.temp ?? null, hum: e.data.hum ?? null });
    if (Object.keys(add).length) setLive((cur) => Object.fromEntries([...wanted].map((n) => [n, [...(cur[n] ?? []), ...(add[n] ?? [])]])));
  });
  const queries = useQueries({
    queries: sensors.map((s) => ({
      queryKey: ['home', 'sensorRecords', s.devNo, span.start],
      queryFn: () => call(historyRefs.history, { query: { deviceNo: s.devNo, start: span.start, end: span.end, maxPoints: 200 } }),
    })),
  });
  const series = sensors.map((s, i) => ({ ...s, points: withLive((queries[i]?.data?.points ?? []) as HistoryPoint[], live[s.devNo] ?? []) }));
  const option = useMemo(
    () =>
      asHomeOption({
        tooltip: { trigger: 'axis' },
        legend: { top: 0, type: 'scroll', textStyle: { fontSize: 11 } },
        grid: { left: 8, right: 16, top: 28, bottom: 4, containLabel: true },
        xAxis: { type: 'time', axisLabel: { formatter: (v: number) => formatInZone(v, user?.timeZone, 'HH:mm') } },
        yAxis: { type: 'value', scale: true, axisLabel: { formatter: '{value} °C' } },
        series: series.map((s) => ({ type: 'line', name: s.devNo, showSymbol: false, data: s.points.map((p) => [p.ts, p.temp]) })),
      }),
    [series, user?.timeZone],
  );
  const loading = queries.some((q) => q.isPending);
  const error = queries.find((q) => q.isError)?.error;
  return (
    <WidgetCard
      title={t('widget.sensorRecords')}
      extra={<Link to="/homepageset">{t('sensors.pick')}</Link>}
      loading={loading && sensors.length > 0}
      error={error}
      onRetry={() => queries.forEach((q) => void q.refetch())}
      testId="widget-sensor-records"
    >
      {sensors.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<Link to="/homepageset">{t('sensors.none')}</Link>} />
      ) : (
        <>
          <HomeChart option={option} height={190} />
          <Table
            size="small"
            pagination={false}
            rowKey="devNo"
            scroll={{ x: 'max-content' }}
            dataSource={series}
            columns={[
              { title: t('sensors.devNo'), dataIndex: 'devNo', render: (no: string) => <Link to={`/historyData?deviceNo=${encodeURIComponent(no)}`}>{no}</Link> },
              { title: t('list.name'), dataIndex: 'carrierName', render: (n: string | null) => n ?? '--' },
              { title: t('list.temp'), key: 'temp', align: 'right', render: (_, s) => `${fmtValue(s.points.at(-1)?.temp)} °C` },
              { title: t('list.hum'), key: 'hum', align: 'right', render: (_, s) => `${fmtValue(s.points.at(-1)?.hum)} %RH` },
              { title: t('list.time'), key: 'ts', render: (_, s) => (s.points.length ? formatInZone(s.points.at(-1)!.ts, user?.timeZone, 'MM-DD HH:mm') : '--') },
            ]}
          />
        </>
      )}
    </WidgetCard>
  );
}
