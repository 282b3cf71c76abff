/**
 * Guidance analysis (spec §2 /count/guidance, menu analGuidance; issue 29): the caller's carriers
 * over the last 7 days ranked by how far they are from good (statisticLogic.ts `distance`: pass
 * rate, excursions, offline rate, open exceptions, overdue calibration), each with the first thing
 * to look at, linked to the page where it is done.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Card, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { complianceRefs, exceptionRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { distance, pct, type CarrierHealth, type Concern } from './statisticLogic';
import { useWeekStatistics } from './useWeekStatistics';

interface Ranked extends CarrierHealth {
  score: number;
  concerns: Concern[];
}

/** Where each concern is dealt with. */
const pageOf = (c: Concern, r: Ranked, span: [number, number]) =>
  ({
    openExceptions: `/abnormal/dataex?carrierId=${r.carrierId}`,
    passRate: `/carrierProbeHistory?carrierId=${r.carrierId}&start=${span[0]}&end=${span[1]}`,
    excursions: `/abnormal/dataex?carrierId=${r.carrierId}`,
    offline: `/count/detailData?carrierIds=${r.carrierId}&start=${span[0]}&end=${span[1]}`,
    calibration: '/count/guidance',
  })[c];

export function GuidanceAnalysis() {
  const { t } = useTranslation('statistic');
  const week = useWeekStatistics();
  const open = useCall(exceptionRefs.page, { query: { status: 0, iDisplayLength: 100 } });
  const calibration = useCall(complianceRefs.page, { query: { check: 'calibration', iDisplayLength: 100 } });
  const ranked = useMemo<Ranked[]>(() => {
    const count = (ids: (number | null)[]) => ids.reduce((m, id) => (id === null ? m : m.set(id, (m.get(id) ?? 0) + 1)), new Map<number, number>());
    const openBy = count((open.data?.rows ?? []).map((e) => e.carrierId));
    const overdueBy = count((calibration.data?.rows ?? []).filter((f) => f.rule === 'expired').map((f) => f.carrierId));
    return week.rows
      .map((r) => {
        const h: CarrierHealth = {
          carrierId: r.carrierId,
          name: r.name,
          passRate: r.summary.temp.passRate,
          excursions: r.summary.temp.excursions + (r.summary.hum?.excursions ?? 0),
          offlineRate: r.summary.temp.offlineRate,
          openExceptions: openBy.get(r.carrierId) ?? 0,
          overdueCalibrations: overdueBy.get(r.carrierId) ?? 0,
        };
        return { ...h, ...distance(h) };
      })
      .sort((a, b) => b.score - a.score);
  }, [week.rows, open.data, calibration.data]);

  const columns: TableColumnsType<Ranked> = [
    { title: t('guidance.col.rank'), key: 'rank', width: 48, render: (_, __, i) => i + 1 },
    { title: t('guidance.col.carrier'), dataIndex: 'name', width: 180, ellipsis: true },
    { title: t('guidance.col.score'), dataIndex: 'score', width: 110, align: 'right', render: (s: number) => s.toFixed(2) },
    {
      title: t('guidance.col.first'),
      key: 'first',
      width: 240,
      render: (_, r) =>
        r.concerns.length ? <Link to={pageOf(r.concerns[0], r, week.span)}>{t(`guidance.concern.${r.concerns[0]}`)}</Link> : <Tag color="green">{t('guidance.good')}</Tag>,
    },
    { title: t('col.passRate'), dataIndex: 'passRate', width: 100, align: 'right', render: (v: number | null) => pct(v) },
    { title: t('col.excursions'), dataIndex: 'excursions', width: 90, align: 'right' },
    { title: t('col.offlineRate'), dataIndex: 'offlineRate', width: 100, align: 'right', render: (v: number | null) => pct(v) },
    { title: t('guidance.col.open'), dataIndex: 'openExceptions', width: 110, align: 'right' },
    { title: t('guidance.col.calibration'), dataIndex: 'overdueCalibrations', width: 130, align: 'right' },
  ];
  return (
    <Card size="small" title={t('guidance.title')} style={{ marginBottom: 12 }}>
      <Typography.Paragraph type="secondary">{t('guidance.intro')}</Typography.Paragraph>
      <Table<Ranked> size="small" rowKey="carrierId" columns={columns} dataSource={ranked} loading={week.loading} pagination={{ pageSize: 10, hideOnSinglePage: true }} scroll={{ x: 1100 }} />
    </Card>
  );
}
