/**
 * /count/detailData (spec §2 "detailed data"): every reading of up to ten carriers (their value
 * in their sample mode) or sensors over a span, paged on the server, newest first; readings an
 * invalid rule excludes are marked, values outside the zone coloured (spec §9). A subject's
 * chart and playback are one click away (/carrierProbeHistory, /probeHistory).
 * Opened with ?carrierIds=1,2 or ?devNos=A,B (links), else empty until a subject is chosen.
 * One carrier's span exports as CSV from the server (exportLink.ts): the whole span, not the page.
 */
import { useMemo, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Button, Card, Empty, Space, Tag, Tooltip, Typography } from 'antd';
import { DownloadOutlined, LineChartOutlined, TableOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { detailDataApi, RANGE_COLORS, type DetailPage, type DetailRow, type DetailSubject } from '@coldwatch/contract';
import type { ColumnsType } from 'antd/es/table';
import { useAuth } from '../../app/auth';
import { PagedTable } from '../../ui';
import { fmtValue, fmtZone, formatInZone } from '../../lib/format';
import { useHistorySpan } from '../history/historySpan';
import { SpanPicker } from '../history/SpanPicker';
import { SubjectPicker, type SubjectKind } from './SubjectPicker';
import { exportHref } from './exportLink';
import { exportRefs } from '@coldwatch/contract';
import { ExportButton } from '../download/ExportButton';
import './detailData.css';

const listOf = (s: string | null) => (s ? s.split(',').map((x) => x.trim()).filter(Boolean) : []);

/** A subject's link to its chart with playback. */
const chartLink = (s: DetailSubject, span: [number, number]) =>
  s.deviceNo ? `/probeHistory?deviceNo=${encodeURIComponent(s.deviceNo)}&start=${span[0]}&end=${span[1]}` : `/carrierProbeHistory?carrierId=${s.carrierId}&start=${span[0]}&end=${span[1]}`;

export default function DetailDataPage() {
  const { t } = useTranslation('detailData');
  const { t: tc } = useTranslation('carrier');
  const { user } = useAuth();
  const timeZone = user?.timeZone ?? null;
  const [params] = useSearchParams();
  const [kind, setKind] = useState<SubjectKind>(params.get('devNos') ? 'sensor' : 'carrier');
  const [chosen, setChosen] = useState<string[]>(() => listOf(params.get('devNos') ?? params.get('carrierIds')));
  const span = useHistorySpan(params, timeZone);
  const [answer, setAnswer] = useState<DetailPage | null>(null);

  const filters = useMemo(
    () => ({ [kind === 'carrier' ? 'carrierIds' : 'devNos']: chosen.join(','), start: span.range[0], end: span.range[1] }),
    [kind, chosen, span.range],
  );
  const known = useMemo(() => (answer?.subjects ?? []).map((s) => ({ value: s.deviceNo ?? String(s.carrierId), label: s.deviceNo ? `${s.deviceNo} · ${s.name}` : s.name })), [answer]);
  const many = chosen.length > 1;
  const csv = exportHref(kind, chosen, span.range);

  const columns: ColumnsType<DetailRow> = [
    {
      title: t('col.time'),
      dataIndex: 'ts',
      width: 240,
      render: (ts: number, r) => (
        <span>
          {formatInZone(ts, timeZone)}
          {r.excludedBy !== null && (
            <Tooltip title={t('excludedTip')}>
              <Tag className="cw-dd-excluded">{t('excluded')}</Tag>
            </Tooltip>
          )}
        </span>
      ),
    },
    ...(kind === 'sensor' ? [{ title: t('col.sensor'), dataIndex: 'deviceNo', width: 140 }] : []),
    ...(many || kind === 'sensor' ? [{ title: t('col.carrier'), dataIndex: 'carrierName', render: (v: string | null) => v ?? '--' }] : []),
    {
      title: t('col.temp'),
      dataIndex: 'temp',
      align: 'right',
      render: (v: number | null, r) => <span style={{ color: r.tempState ? RANGE_COLORS[r.tempState] : undefined }}>{fmtValue(v, 2)}</span>,
    },
    {
      title: t('col.hum'),
      dataIndex: 'hum',
      align: 'right',
      render: (v: number | null, r) => <span style={{ color: r.humState ? RANGE_COLORS[r.humState] : undefined }}>{fmtValue(v, 2)}</span>,
    },
  ];

  return (
    <div className="cw-dd-page">
      <Card size="small">
        <div className="cw-dd-toolbar">
          <SubjectPicker
            kind={kind}
            onKind={(k) => {
              setKind(k);
              setChosen([]);
            }}
            value={chosen}
            onChange={setChosen}
            known={known}
          />
          <SpanPicker span={span} timeZone={timeZone} />
        </div>
      </Card>

      {!chosen.length ? (
        <Card>
          <Empty image={<TableOutlined style={{ fontSize: 48, color: '#bfbfbf' }} />} description={t('choose')} />
        </Card>
      ) : (
        <Card
          size="small"
          title={
            <Space wrap size={[8, 4]}>
              <span>{t('readings')}</span>
              {answer && <Typography.Text type="secondary">{t('total', { count: answer.total })}</Typography.Text>}
              {timeZone && <Typography.Text type="secondary">{t('timeZone', { tz: timeZone })}</Typography.Text>}
            </Space>
          }
          extra={
            <Space size={8}>
              <Tooltip title={csv ? t('exportTip') : t('exportOnlyOne')}>
                <Button size="small" icon={<DownloadOutlined />} disabled={!csv} href={csv ?? undefined} download>
                  {t('export')}
                </Button>
              </Tooltip>
              <ExportButton
                size="small"
                def={exportRefs.detailData}
                input={csv ? { body: { carrierIds: [Number(chosen[0])], start: span.range[0], end: span.range[1], format: 'xlsx' } } : null}
                why={t('exportOnlyOne')}
              />
            </Space>
          }
        >
          {answer && (
            <div className="cw-dd-subjects-list">
              {answer.subjects.map((s) => (
                <div key={s.deviceNo ?? s.carrierId} className="cw-dd-subject">
                  <strong>{s.deviceNo ?? s.name}</strong>
                  {s.mode && <Tag>{t('mode', { mode: tc(`sampleMode.${s.mode}`), list: s.devNos.join(', ') })}</Tag>}
                  {(s.tempMin !== null || s.tempMax !== null) && <Typography.Text type="secondary">{t('tempZone', { zone: fmtZone(s.tempMin, s.tempMax) })}</Typography.Text>}
                  {s.excluded.length > 0 && <Tag className="cw-dd-excluded">{t('excludedPeriods', { count: s.excluded.length })}</Tag>}
                  <Link to={chartLink(s, span.range)}>
                    <LineChartOutlined /> {t('chart')}
                  </Link>
                </div>
              ))}
            </div>
          )}
          <PagedTable
            route={detailDataApi.page}
            params={filters}
            rowKey={(r) => `${r.deviceNo ?? r.carrierId}:${r.ts}`}
            rowClassName={(r) => (r.excludedBy !== null ? 'cw-dd-row-excluded' : '')}
            columns={columns}
            size="small"
            onLoaded={setAnswer}
            scroll={{ x: 'max-content' }}
          />
        </Card>
      )}
    </div>
  );
}
