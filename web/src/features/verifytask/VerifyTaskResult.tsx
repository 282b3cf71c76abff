/**
 * A verification task's result (issue 29; docs/statistics.md "Mapping figures (JJF 1101)"): the
 * figures of temperature and, when it has a set point, of humidity, each point's minimum, mean,
 * maximum and fluctuation in a table and as a chart beside the set point. The server computes
 * every figure at full precision; the page rounds to two decimals.
 */
import { Alert, Descriptions, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { MappingFigures, MappingPoint, VerifyTaskDetail } from '@coldwatch/contract';
import { fmtNumber, formatInZone } from '../../lib/format';
import { EChart, type ChartOption } from '../history/EChart';

const signed = (v: number | null) => (v === null ? '--' : `${v > 0 ? '+' : ''}${fmtNumber(v)}`);

function pointsChart(points: MappingPoint[], setpoint: number, t: (k: string) => string): ChartOption {
  const line = (name: string, of: (p: MappingPoint) => number | null, color: string) => ({
    name,
    type: 'line' as const,
    data: points.map((p) => (of(p) === null ? null : Number(of(p)!.toFixed(2)))),
    symbolSize: 8,
    itemStyle: { color },
    lineStyle: { width: 1, type: 'dashed' as const, color },
  });
  return {
    grid: { left: 48, right: 24, top: 36, bottom: 48 },
    tooltip: { trigger: 'axis' },
    legend: { top: 0 },
    xAxis: { type: 'category', data: points.map((p) => p.deviceNo), axisLabel: { rotate: points.length > 6 ? 30 : 0 } },
    yAxis: { type: 'value', scale: true },
    series: [
      { ...line(t('result.max'), (p) => p.max, '#fa8c16'), markLine: { symbol: 'none', data: [{ yAxis: setpoint, name: t('result.setpointLine') }], lineStyle: { color: '#52c41a' }, label: { position: 'insideEndTop', formatter: `${t('result.setpointLine')} ${setpoint}` } } },
      line(t('result.mean'), (p) => p.mean, '#1677ff'),
      line(t('result.min'), (p) => p.min, '#13c2c2'),
    ],
  } as ChartOption;
}

function Figures({ f, title, centre }: { f: MappingFigures; title: string; centre: string | null }) {
  const { t } = useTranslation('verifyTask');
  const items = [
    { key: 'deviationMax', label: t('result.deviationMax'), children: signed(f.deviationMax) },
    { key: 'deviationMin', label: t('result.deviationMin'), children: signed(f.deviationMin) },
    { key: 'uniformity', label: t('result.uniformity'), children: fmtNumber(f.uniformity) },
    { key: 'fluctuationMax', label: t('result.fluctuationMax'), children: f.fluctuationMax === null ? '--' : `±${fmtNumber(f.fluctuationMax)}` },
    { key: 'centreDeviation', label: `${t('result.centreDeviation')} (${centre ?? '--'})`, children: signed(f.centreDeviation) },
    { key: 'hottest', label: t('result.hottest'), children: f.hottest ?? '--' },
    { key: 'coldest', label: t('result.coldest'), children: f.coldest ?? '--' },
    { key: 'instants', label: t('result.instants'), children: `${f.instants} (${f.completeInstants})` },
  ];
  return <Descriptions size="small" bordered title={title} column={{ xs: 1, md: 2 }} items={items} style={{ marginBottom: 16 }} />;
}

export function VerifyTaskResult({ task, timeZone }: { task: VerifyTaskDetail; timeZone?: string | null }) {
  const { t } = useTranslation('verifyTask');
  const r = task.result;
  if (!r) return <Alert type="info" showIcon title={t('result.none')} />;
  const columns = [
    { title: t('result.device'), dataIndex: 'deviceNo', width: 140 },
    { title: t('result.readings'), dataIndex: 'readings', width: 90, align: 'right' as const },
    { title: t('result.min'), dataIndex: 'min', width: 90, align: 'right' as const, render: (v: number | null) => fmtNumber(v) },
    { title: t('result.mean'), dataIndex: 'mean', width: 90, align: 'right' as const, render: (v: number | null) => fmtNumber(v) },
    { title: t('result.max'), dataIndex: 'max', width: 90, align: 'right' as const, render: (v: number | null) => fmtNumber(v) },
    { title: t('result.fluctuation'), dataIndex: 'fluctuation', width: 110, align: 'right' as const, render: (v: number | null) => (v === null ? '--' : `±${fmtNumber(v)}`) },
  ];
  return (
    <div data-testid="verify-result">
      <Typography.Paragraph type="secondary">
        {t('result.window', { from: formatInZone(r.startTime, timeZone, 'YYYY-MM-DD HH:mm'), to: formatInZone(r.endTime, timeZone, 'YYYY-MM-DD HH:mm'), setpoint: r.setpoint, interval: r.interval })}
      </Typography.Paragraph>
      <Figures f={r} title={t('result.temp')} centre={r.centre} />
      {r.humidity && <Figures f={r.humidity} title={t('result.hum')} centre={r.centre} />}
      <Typography.Title level={5}>{t('result.points')}</Typography.Title>
      <Table<MappingPoint> size="small" rowKey="sensorId" columns={columns} dataSource={r.points} pagination={false} scroll={{ x: 600 }} style={{ marginBottom: 16 }} />
      <Typography.Title level={5}>{t('result.chart')}</Typography.Title>
      <EChart option={pointsChart(r.points, r.setpoint, t)} height={300} />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, fontSize: 12 }}>
        {t('result.how')}
      </Typography.Paragraph>
    </div>
  );
}
