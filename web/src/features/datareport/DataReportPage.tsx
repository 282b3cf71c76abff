/**
 * /count/dataReport (spec §2: where /count leads; §3 Report/statistics): an organisation's (or a
 * carrier type's) monitoring over a span in one page, for whoever answers for it: the headline
 * figures, the carrier types side by side, the exceptions of the span by state and kind, and every
 * carrier worst first, each linking to its statistics. The figures are the server's
 * (`/service/count/dataReport`, docs/statistics.md "The data report"); the page only rounds.
 */
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Alert, Card, Col, Empty, Row, Select, Space, Statistic, Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { keepPreviousData } from '@tanstack/react-query';
import { CARRIER_TYPES, dataReportRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { PageCard } from '../../ui';
import { useHistorySpan } from '../history/historySpan';
import { SpanPicker } from '../history/SpanPicker';
import { SceneSelect } from '../statistic/SceneSelect';
import { pct } from '../statistic/statisticLogic';
import { ReportTables } from './ReportTables';

export default function DataReportPage() {
  const { t } = useTranslation('dataReport');
  const { t: tc } = useTranslation('carrier');
  const { t: ta } = useTranslation('abnormal');
  const { user } = useAuth();
  const tz = user?.timeZone ?? null;
  const [params] = useSearchParams();
  const span = useHistorySpan(params, tz, 'week');
  const [sceneId, setSceneId] = useState<number | undefined>();
  const [type, setType] = useState<number | undefined>();
  const [start, end] = span.range;
  const report = useCall(dataReportRefs.report, { query: { sceneId, type, startTime: start, endTime: end } }, { placeholderData: keepPreviousData });
  const r = report.data;
  const duration = (s: number) => t('hours', { h: (s / 3600).toFixed(1) });

  return (
    <PageCard
      title={t('title')}
      extra={<Link to="/count/statistic">{t('perPeriod')}</Link>}
    >
      <Space wrap style={{ marginBottom: 16 }}>
        <SceneSelect value={sceneId} onChange={setSceneId} placeholder={t('allScenes')} />
        <Select style={{ width: 180 }} value={type} onChange={setType} allowClear placeholder={t('allTypes')} options={CARRIER_TYPES.map((c) => ({ value: c.type, label: tc(`type.${c.type}`) }))} data-testid="report-type" />
        <SpanPicker span={span} timeZone={tz} />
      </Space>
      {report.isError && <Alert type="error" showIcon title={errorMessage(report.error, t)} data-testid="report-error" />}
      {r && r.summary.carriers === 0 && <Empty description={t('empty')} />}
      {r && r.summary.carriers > 0 && (
        <div data-testid="data-report">
          <Row gutter={[16, 16]}>
            <Col xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic title={t('card.carriers')} value={r.summary.carriers} suffix={<Typography.Text type="secondary">{t('card.reporting', { n: r.summary.reporting })}</Typography.Text>} />
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic title={t('card.passRate')} value={pct(r.summary.passRate)} data-testid="report-pass-rate" />
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic title={t('card.allInZone')} value={r.summary.allInZone} suffix={`/ ${r.summary.carriers}`} />
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic title={t('card.offlineRate')} value={pct(r.summary.offlineRate)} />
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic title={t('card.excursions')} value={r.summary.excursions} suffix={r.summary.excursions ? <Typography.Text type="secondary">{duration(r.summary.excursionS)}</Typography.Text> : undefined} />
              </Card>
            </Col>
            <Col xs={12} md={8} xl={4}>
              <Card size="small">
                <Statistic title={t('card.exceptions')} value={r.exceptions.total} suffix={r.exceptions.pending ? <Typography.Text type="danger">{t('card.pending', { n: r.exceptions.pending })}</Typography.Text> : undefined} />
              </Card>
            </Col>
          </Row>
          <Typography.Paragraph type="secondary" style={{ margin: '12px 0' }}>
            {t('note')}
          </Typography.Paragraph>
          <ReportTables report={r} typeName={(n) => tc(`type.${n}`)} categoryName={(c) => ta(`category.${c}`)} statusName={(s) => ta(`status.${s}`)} duration={duration} start={start} end={end} />
        </div>
      )}
      {!r && !report.isError && <Table loading columns={[]} dataSource={[]} />}
    </PageCard>
  );
}
