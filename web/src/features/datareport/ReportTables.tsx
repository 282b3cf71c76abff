import { useState } from 'react';
import { Link } from 'react-router';
import { Col, Row, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES, type DataReportCarrier, type DataReportResult } from '@coldwatch/contract';
import { fmtValue } from '../../lib/format';
import { PhoneRows, type PhoneTable } from '../../ui/PhoneRows';
import { usePhone } from '../../ui/useNarrow';
import { pct } from '../statistic/statisticLogic';

type TypeRow = DataReportResult['byType'][number];

interface Props {
  report: DataReportResult;
  typeName: (type: number) => string;
  categoryName: (category: string) => string;
  statusName: (status: number) => string;
  duration: (seconds: number) => string;
  start: number;
  end: number;
}

/** A pass rate below this is shown in red: the carrier left its zone for more than a minute a day. */
const GOOD = 0.999;
const rate = (v: number | null) => <Typography.Text type={v !== null && v < GOOD ? 'danger' : undefined}>{pct(v)}</Typography.Text>;

/** The data report's tables: by carrier type, the exceptions of the span, every carrier worst first. */
export function ReportTables({ report, typeName, categoryName, statusName, duration, start, end }: Props) {
  const { t } = useTranslation('dataReport');
  const phone = usePhone();
  const [page, setPage] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
  const excursions = (n: number, s: number) => (n ? `${n} · ${duration(s)}` : '0');

  const typeColumns: TableColumnsType<TypeRow> = [
    { title: t('col.type'), key: 'type', render: (_, r) => typeName(r.type) },
    { title: t('col.carriers'), dataIndex: 'carriers', align: 'right' },
    { title: t('col.passRate'), key: 'pass', align: 'right', render: (_, r) => rate(r.passRate) },
    { title: t('col.humPassRate'), key: 'hum', align: 'right', render: (_, r) => rate(r.humPassRate) },
    { title: t('col.offlineRate'), key: 'off', align: 'right', render: (_, r) => pct(r.offlineRate) },
    { title: t('col.excursions'), key: 'exc', render: (_, r) => excursions(r.excursions, r.excursionS) },
  ];
  const ex = report.exceptions;
  const categories = Object.entries(ex.byCategory).sort((a, b) => b[1] - a[1]);

  const carrierColumns: TableColumnsType<DataReportCarrier> = [
    {
      title: t('col.carrier'),
      key: 'name',
      width: 160,
      fixed: phone ? undefined : 'left',
      render: (_, r) => <Link to={`/count/statistic?carrierIds=${r.carrierId}&start=${start}&end=${end}`}>{r.name}</Link>,
    },
    { title: t('col.scene'), dataIndex: 'sceneLabel', width: 130, ellipsis: true },
    { title: t('col.type'), key: 'type', width: 110, render: (_, r) => typeName(r.type) },
    { title: t('col.passRate'), key: 'pass', width: 90, align: 'right', render: (_, r) => rate(r.passRate) },
    { title: t('col.humPassRate'), key: 'hum', width: 100, align: 'right', render: (_, r) => (r.humPassRate === null ? '--' : rate(r.humPassRate)) },
    { title: t('col.min'), key: 'min', width: 70, align: 'right', render: (_, r) => fmtValue(r.min, 2) },
    { title: t('col.max'), key: 'max', width: 70, align: 'right', render: (_, r) => fmtValue(r.max, 2) },
    { title: t('col.mkt'), key: 'mkt', width: 70, align: 'right', render: (_, r) => fmtValue(r.mkt, 2) },
    { title: t('col.offlineRate'), key: 'off', width: 90, align: 'right', render: (_, r) => pct(r.offlineRate) },
    { title: t('col.excursions'), key: 'exc', width: 110, render: (_, r) => excursions(r.excursions, r.excursionS) },
    { title: t('col.readings'), dataIndex: 'readings', width: 80, align: 'right' },
  ];
  const pagination = {
    current: page.current,
    pageSize: page.size,
    total: report.carriers.length,
    showSizeChanger: true,
    pageSizeOptions: PAGE_SIZES.map(String),
    showLessItems: true,
    onChange: (current: number, size: number) => setPage({ current: size !== page.size ? 1 : current, size }),
  };

  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={14}>
          <Typography.Title level={5}>{t('byType')}</Typography.Title>
          {phone ? (
            <PhoneRows table={{ columns: typeColumns, rowKey: 'type' } as unknown as PhoneTable} rows={report.byType} loading={false} pagination={{ hideOnSinglePage: true, total: report.byType.length, pageSize: 10 }} />
          ) : (
            <Table<TypeRow> size="small" rowKey="type" columns={typeColumns} dataSource={report.byType} pagination={false} data-testid="report-by-type" />
          )}
        </Col>
        <Col xs={24} xl={10}>
          <Typography.Title level={5}>{t('exceptions', { n: ex.total })}</Typography.Title>
          <div style={{ marginBottom: 8 }}>
            {([0, 1, 2] as const).map((s) => (
              <Tag key={s} color={s === 0 && ex.pending ? 'red' : undefined}>
                {statusName(s)} {[ex.pending, ex.processed, ex.closed][s]}
              </Tag>
            ))}
          </div>
          {categories.length ? (
            <Table
              size="small"
              rowKey="0"
              pagination={false}
              dataSource={categories}
              columns={[
                { title: t('col.category'), key: 'c', render: (_, [c]) => categoryName(c) },
                { title: t('col.count'), key: 'n', align: 'right', render: (_, [, n]) => n },
              ]}
              data-testid="report-categories"
            />
          ) : (
            <Typography.Text type="secondary">{t('noExceptions')}</Typography.Text>
          )}
        </Col>
      </Row>
      <Typography.Title level={5} style={{ marginTop: 24 }}>
        {t('carriers')}
      </Typography.Title>
      {phone ? (
        <PhoneRows table={{ columns: carrierColumns, rowKey: 'carrierId' } as unknown as PhoneTable} rows={report.carriers.slice((page.current - 1) * page.size, page.current * page.size)} loading={false} pagination={pagination} />
      ) : (
        <Table<DataReportCarrier> size="small" rowKey="carrierId" columns={carrierColumns} dataSource={report.carriers} pagination={pagination} scroll={{ x: 1080 }} data-testid="report-carriers" />
      )}
    </>
  );
}
