/**
 * /count/statistic (menu statistic, spec §2, §3 Report/statistics): the figures of carriers chosen
 * by organisation, by type or one by one, over a span (the quick ranges of §9) by day, week or
 * month: a table of the whole span per carrier (each row opens its periods) and a chart of one
 * figure per period. Every figure is the server's (docs/statistics.md); the page only rounds.
 */
import { exportRefs } from '@coldwatch/contract';
import { ExportButton } from '../download/ExportButton';
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Empty, Segmented, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { keepPreviousData } from '@tanstack/react-query';
import { CARRIER_TYPES, carrierRefs, STATISTIC_MAX_CARRIERS, STATISTIC_PERIODS, statisticRefs, type StatisticFigures, type StatisticPeriod, type StatisticResult } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PageCard } from '../../ui';
import { SceneSelect } from './SceneSelect';
import { fmtValue, formatDuration } from '../../lib/format';
import { EChart } from '../history/EChart';
import { useHistorySpan } from '../history/historySpan';
import { SpanPicker } from '../history/SpanPicker';
import { CHART_FIGURES, pct, periodChart, periodLabel, type ChartFigure } from './statisticLogic';

type By = 'scene' | 'type' | 'pick';

export default function StatisticPage() {
  const { t } = useTranslation('statistic');
  const { t: tc } = useTranslation('carrier');
  // Durations in the exceptions' units (d, h, min, s).
  const { t: ta } = useTranslation('abnormal');
  const { user } = useAuth();
  const tz = user?.timeZone ?? null;
  const [params] = useSearchParams();
  const span = useHistorySpan(params, tz);
  const [by, setBy] = useState<By>(params.get('carrierIds') ? 'pick' : 'scene');
  const [sceneId, setSceneId] = useState<number | undefined>();
  const [type, setType] = useState<number | undefined>();
  const [picked, setPicked] = useState<number[]>(() => (params.get('carrierIds') ?? '').split(',').filter(Boolean).map(Number));
  const [search, setSearch] = useState('');
  const [period, setPeriod] = useState<StatisticPeriod>('day');
  const [figure, setFigure] = useState<ChartFigure>('passRate');

  // The carriers of the organisation or type chosen (the first STATISTIC_MAX_CARRIERS), or those picked.
  const listed = useCall(
    carrierRefs.page,
    { query: { iDisplayLength: by === 'pick' ? 100 : STATISTIC_MAX_CARRIERS, sceneId: by === 'scene' ? sceneId : undefined, type: by === 'type' ? (type as never) : undefined, name: by === 'pick' ? search || undefined : undefined } },
    { placeholderData: keepPreviousData },
  );
  const ids = useMemo(() => (by === 'pick' ? picked : (listed.data?.rows ?? []).map((c) => c.id)).slice(0, STATISTIC_MAX_CARRIERS), [by, picked, listed.data]);
  const [start, end] = span.range;
  const stats = useCall(
    statisticRefs.list,
    { query: { carrierIds: ids.join(','), startTime: start, endTime: end, period } },
    { enabled: ids.length > 0 && (by !== 'scene' || !!sceneId || !!listed.data), placeholderData: keepPreviousData },
  );
  const rows = ids.length ? (stats.data ?? []) : [];
  const unit = figure === 'passRate' || figure === 'offlineRate' ? '%' : '°C';
  const seconds = (s: number | null) => (s === null ? '--' : formatDuration(s, (u, n) => ta(`unit.${u}`, { count: n }), ta('unit.sep')) || '0');

  const figureColumns = (of: (r: StatisticFigures) => StatisticFigures): TableColumnsType<StatisticResult | StatisticFigures> => {
    const m = (r: StatisticResult | StatisticFigures) => of('summary' in r ? r.summary : r).temp;
    return [
      { title: t('col.readings'), key: 'readings', width: 90, align: 'right', render: (_, r) => m(r).readings },
      { title: t('col.min'), key: 'min', width: 80, align: 'right', render: (_, r) => fmtValue(m(r).min, 2) },
      { title: t('col.max'), key: 'max', width: 80, align: 'right', render: (_, r) => fmtValue(m(r).max, 2) },
      { title: t('col.avg'), key: 'avg', width: 80, align: 'right', render: (_, r) => fmtValue(m(r).avg, 2) },
      { title: t('col.stdDev'), key: 'stdDev', width: 80, align: 'right', render: (_, r) => fmtValue(m(r).stdDev, 2) },
      { title: t('col.mkt'), key: 'mkt', width: 80, align: 'right', render: (_, r) => fmtValue(m(r).mkt, 2) },
      { title: t('col.passRate'), key: 'passRate', width: 100, align: 'right', render: (_, r) => pct(m(r).passRate) },
      { title: t('col.timeInZone'), key: 'tiz', width: 120, render: (_, r) => seconds(m(r).timeInZoneS) },
      { title: t('col.offlineRate'), key: 'offline', width: 100, align: 'right', render: (_, r) => pct(m(r).offlineRate) },
      { title: t('col.excursions'), key: 'exc', width: 150, render: (_, r) => (m(r).excursions ? `${m(r).excursions} · ${seconds(m(r).excursionS)}` : '0') },
      { title: t('col.excluded'), key: 'excl', width: 110, render: (_, r) => (m(r).excludedS ? seconds(m(r).excludedS) : '--') },
    ];
  };
  const same = (f: StatisticFigures) => f;
  const columns: TableColumnsType<StatisticResult | StatisticFigures> = [
    {
      title: t('col.carrier'),
      key: 'name',
      width: 180,
      fixed: 'left',
      ellipsis: true,
      render: (_, r) => ('carrierId' in r ? <Link to={`/carrierProbeHistory?carrierId=${r.carrierId}&start=${start}&end=${end}`}>{r.name}</Link> : null),
    },
    ...figureColumns(same),
  ];
  const periodColumns: TableColumnsType<StatisticResult | StatisticFigures> = [
    { title: t(`period.${period}`), key: 'p', width: 180, render: (_, r) => ('start' in r ? periodLabel(r, period, tz) : null) },
    ...figureColumns(same),
  ];

  return (
    <PageCard title={t('title')}>
      <Space wrap style={{ marginBottom: 12 }}>
        <Segmented<By> value={by} onChange={setBy} options={(['scene', 'type', 'pick'] as const).map((k) => ({ value: k, label: t(`by.${k}`) }))} />
        {by === 'scene' && <SceneSelect value={sceneId} onChange={setSceneId} placeholder={t('pickScene')} />}
        {by === 'type' && (
          <Select style={{ width: 180 }} value={type} onChange={setType} allowClear placeholder={t('pickType')} options={CARRIER_TYPES.map((c) => ({ value: c.type, label: tc(`type.${c.type}`) }))} />
        )}
        {by === 'pick' && (
          <Select
            mode="multiple"
            style={{ minWidth: 260, maxWidth: 480 }}
            value={picked}
            onChange={setPicked}
            maxCount={STATISTIC_MAX_CARRIERS}
            placeholder={t('pickCarriers')}
            showSearch={{ filterOption: false, onSearch: setSearch }}
            options={(listed.data?.rows ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${c.sceneLabel}` }))}
            maxTagCount="responsive"
            allowClear
          />
        )}
        <Segmented<StatisticPeriod> value={period} onChange={setPeriod} options={STATISTIC_PERIODS.map((p) => ({ value: p, label: t(`period.${p}`) }))} />
        <SpanPicker span={span} timeZone={tz} />
        <ExportButton def={exportRefs.statistic} input={ids.length ? { body: { carrierIds: ids, start, end, format: 'xlsx' } } : null} />
      </Space>
      {ids.length === 0 ? (
        <Empty description={t('empty')} />
      ) : (
        <>
          <Table<StatisticResult | StatisticFigures>
            size="small"
            rowKey={(r) => ('carrierId' in r ? r.carrierId : r.start)}
            columns={columns}
            dataSource={rows}
            loading={stats.isFetching}
            pagination={false}
            scroll={{ x: 1500 }}
            expandable={{
              rowExpandable: (r) => 'periods' in r && (r.periods?.length ?? 0) > 1,
              expandedRowRender: (r) => (
                <Table<StatisticResult | StatisticFigures> size="small" rowKey="start" columns={periodColumns} dataSource={'periods' in r ? r.periods : []} pagination={false} scroll={{ x: 1500 }} />
              ),
            }}
          />
          <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
            {t('note')}
          </Typography.Paragraph>
          <Space style={{ margin: '8px 0' }}>
            <Typography.Text strong>{t('chart')}</Typography.Text>
            <Segmented<ChartFigure> value={figure} onChange={setFigure} options={CHART_FIGURES.map((f) => ({ value: f, label: t(`col.${f}`) }))} />
          </Space>
          <EChart option={periodChart(rows, figure, period, tz, unit)} height={320} />
        </>
      )}
    </PageCard>
  );
}
