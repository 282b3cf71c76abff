/**
 * /abnormal/dataex: the exception records (spec §3, §4): filters by status, category and start
 * time; each record's value against its limits, duration (ongoing ones count up), status; the
 * signed handling (docs/alarms.md "Handling and signatures"): rows selected and handled or
 * closed together, a row's own handle, close and detail (its signed steps), and a link to the
 * device's history around it.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Badge, Button, Descriptions, Popover, Space, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { CheckSquareOutlined, HistoryOutlined, LockOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EXCEPTION_CATEGORIES, EXCEPTION_STATUS, exceptionApi, type ExceptionCategory, type ExceptionRow } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { exportRefs } from '@coldwatch/contract';
import { ExportButton } from '../download/ExportButton';
import { PageCard, PagedTable, SearchBar, type FiltersOf, type PagedTableRef, type SearchField } from '../../ui';
import { fmtNumber, formatDuration, formatInZone, RANGE_COLORS, type DurationUnit } from '../../lib/format';
import { HandleDialog, type HandleTarget } from './HandleDialog';
import { SignDialog, type SignTarget } from './SignDialog';
import { ExceptionDetailDrawer } from './ExceptionDetailDrawer';
import { DuringPauseTag, STATUS_BADGE } from './ExceptionFacts';
import { useExceptionRefresh } from '../databoard/useLiveStream';
import { categoryUnit, deviceOf, exceptionSeconds, historyWindow, isDataCategory } from './exceptionFormat';

/** What a selection allows: handling takes pending records, closing processed ones that are over (the server judges again). */
const handleable = (r: ExceptionRow) => r.status === EXCEPTION_STATUS.pending;
const closable = (r: ExceptionRow) => r.status === EXCEPTION_STATUS.processed && !r.ongoing;

const CATEGORY_COLOR: Record<string, string> = {
  temp_high: 'orange',
  temp_low: 'blue',
  hum_high: 'gold',
  hum_low: 'cyan',
  sensor_connect: 'default',
  gateway_connect: 'default',
  gateway_blackout: 'red',
};

export default function ExceptionListPage() {
  const { t } = useTranslation('abnormal');
  const { user, can } = useAuth();
  const timeZone = user?.timeZone ?? null;
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const carrierId = search.get('carrierId') ?? undefined;

  const [filters, setFilters] = useState<FiltersOf<typeof exceptionApi.page>>({});
  const [handling, setHandling] = useState<HandleTarget | null>(null);
  const [signing, setSigning] = useState<SignTarget | null>(null);
  const [detailId, setDetailId] = useState<number | null>(null);
  const [selected, setSelected] = useState<ExceptionRow[]>([]);
  const table = useRef<PagedTableRef>(null);

  const params = useMemo(() => ({ ...filters, carrierId }), [filters, carrierId]);

  const unit = (u: DurationUnit, n: number) => t(`unit.${u}`, { count: n });
  const canHandle = can('editEx');
  // Opened, changed and ended exceptions show at once (the stream), not at the next poll.
  useExceptionRefresh(() => table.current?.reload());
  const afterChange = () => {
    setSelected([]);
    table.current?.reload();
  };
  const toHandle = selected.filter(handleable);
  const toClose = selected.filter(closable);

  const columns: ColumnsType<ExceptionRow> = [
    {
      title: t('col.time'),
      dataIndex: 'startTs',
      width: 160,
      render: (ts: number, r) => (
        <div>
          <div>{formatInZone(ts, timeZone)}</div>
          {!r.ongoing && r.endTs && (
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('ended', { time: formatInZone(r.endTs, timeZone, 'MM-DD HH:mm:ss') })}
            </Typography.Text>
          )}
        </div>
      ),
    },
    { title: t('col.carrier'), dataIndex: 'carrierName', width: 140, ellipsis: true, render: (v: string | null) => v ?? '--' },
    {
      title: t('col.device'),
      dataIndex: 'devNo',
      width: 150,
      ellipsis: true,
      // A data exception without a sensor is the carrier's value (its sensors' max, min or average);
      // a gateway, display or relay exception names its gateway.
      render: (_: string | null, r) => {
        const d = deviceOf(r);
        if (!d) return '--';
        if ('carrierValue' in d) return <Tag>{t('carrierValue')}</Tag>;
        return <span style={{ fontFamily: 'ui-monospace, monospace' }}>{'devNo' in d ? d.devNo : d.gateway}</span>;
      },
    },
    {
      title: t('col.category'),
      dataIndex: 'category',
      width: 170,
      // The tag wraps rather than being cut ("Gateway power failure").
      render: (c: string) => (
        <Tag color={CATEGORY_COLOR[c] ?? 'default'} style={{ marginInlineEnd: 0, whiteSpace: 'normal', maxWidth: '100%' }}>
          {t(`category.${c}`, { defaultValue: c })}
        </Tag>
      ),
    },
    {
      title: t('col.value'),
      key: 'value',
      width: 180,
      render: (_, r) => {
        if (!isDataCategory(r.category)) return <Typography.Text type="secondary">--</Typography.Text>;
        const u = categoryUnit(r.category);
        const color = r.category.endsWith('_high') ? RANGE_COLORS.high : r.category.endsWith('_low') ? RANGE_COLORS.low : undefined;
        return (
          <div style={{ lineHeight: 1.4 }}>
            <div>
              <b style={{ color }}>{t('value.peak', { v: `${fmtNumber(r.peakValue)} ${u}` })}</b>
              <Typography.Text type="secondary" style={{ fontSize: 12, marginInlineStart: 8 }}>
                {t('value.first', { v: fmtNumber(r.firstValue) })}
              </Typography.Text>
            </div>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('value.limits', { min: fmtNumber(r.limitMin), max: fmtNumber(r.limitMax) })}
            </Typography.Text>
          </div>
        );
      },
    },
    {
      title: t('col.duration'),
      key: 'duration',
      width: 105,
      render: (_, r) => (r.ongoing ? <OngoingFor startTs={r.startTs} /> : formatDuration(exceptionSeconds(r), unit, t('unit.sep'))),
    },
    {
      title: t('col.status'),
      dataIndex: 'status',
      width: 95,
      render: (s: number, r) => {
        const status = <Badge status={STATUS_BADGE[s] ?? 'default'} text={t(`status.${s}`, { defaultValue: String(s) })} />;
        const badge = r.duringPause ? <>{status}<br /><DuringPauseTag inline={false} /></> : status;
        if (!r.reason && !r.measures) return badge;
        // The current handling shows on hover: reason, measures, judgement, excluded.
        return (
          <Popover
            title={t('detail.handling')}
            content={
              <Descriptions size="small" column={1} style={{ maxWidth: 360 }}>
                <Descriptions.Item label={t('detail.reason')}>{r.reason || '--'}</Descriptions.Item>
                <Descriptions.Item label={t('detail.measures')}>{r.measures || '--'}</Descriptions.Item>
                {r.judgement && <Descriptions.Item label={t('detail.judgement')}>{t(`judgement.${r.judgement}`)}</Descriptions.Item>}
                {r.excluded && <Descriptions.Item label={t('detail.excluded')}>{t('detail.excludedYes', { why: r.excludedWhy })}</Descriptions.Item>}
              </Descriptions>
            }
          >
            <span style={{ cursor: 'help', borderBottom: '1px dotted #bfbfbf' }}>{badge}</span>
          </Popover>
        );
      },
    },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 205,
      render: (_, r) => {
        const [start, end] = historyWindow(r);
        return (
          <Space size={0} wrap>
            {canHandle && handleable(r) && (
              <Button type="link" size="small" onClick={() => setHandling({ mode: 'handle', rows: [r] })}>
                {t('action.handle')}
              </Button>
            )}
            {canHandle && closable(r) && (
              <Button type="link" size="small" danger onClick={() => setSigning({ mode: 'close', rows: [r] })}>
                {t('action.close')}
              </Button>
            )}
            <Button type="link" size="small" onClick={() => setDetailId(r.id)}>
              {t('action.detail')}
            </Button>
            {can('newWorkOrder') && (
              <Button type="link" size="small" onClick={() => navigate(`/order/workOrder?raise=exception:${r.id}&name=${encodeURIComponent(r.carrierName ?? r.devNo ?? String(r.id))}`)}>
                {t('workOrder:entry')}
              </Button>
            )}
            {(r.devNo || r.carrierId) && (
              <Button
                type="link"
                size="small"
                icon={<HistoryOutlined />}
                onClick={() =>
                  navigate(
                    `/historyData?${r.devNo ? `deviceNo=${encodeURIComponent(r.devNo)}` : `carrierId=${r.carrierId}`}&start=${start}&end=${end}&exStart=${r.startTs}${r.endTs && !r.ongoing ? `&exEnd=${r.endTs}` : ''}`,
                  )
                }
              >
                {t('action.history')}
              </Button>
            )}
          </Space>
        );
      },
    },
  ];

  const fields: SearchField[] = [
    { name: 'status', type: 'select', label: t('filter.status'), width: 130, options: Object.values(EXCEPTION_STATUS).map((s) => ({ value: s, label: t(`status.${s}`) })) },
    { name: 'category', type: 'select', label: t('filter.category'), width: 170, options: EXCEPTION_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) })) },
    { name: 'devNo', type: 'input', label: t('col.device'), width: 140 },
    { name: 'range', type: 'datetimeRange', label: t('filter.range') },
  ];

  return (
    <PageCard>
      <SearchBar
        fields={fields}
        onSearch={(v) => {
          const r = v.range as [number, number] | undefined;
          setFilters({ status: v.status as number | undefined, category: v.category as ExceptionCategory | undefined, devNo: v.devNo as string | undefined, startTime: r?.[0], endTime: r?.[1] });
        }}
        extra={
          <Space size={8}>
            <ExportButton
              def={exportRefs.exceptions}
              input={{ body: { start: Number(filters.startTime ?? Date.now() - 30 * 86_400_000), end: Number(filters.endTime ?? Date.now()), carrierIds: carrierId ? [Number(carrierId)] : undefined, status: filters.status as number | undefined, category: filters.category as string | undefined, format: 'xlsx' } }}
            />
            <Button icon={<ReloadOutlined />} onClick={() => table.current?.reload()} aria-label={t('filter.query')} />
          </Space>
        }
      />
      {canHandle && (
        <Space style={{ marginBottom: 12 }} wrap data-testid="bulk-actions">
          <Tooltip title={selected.length && !toHandle.length ? t('bulk.noneToHandle') : undefined}>
            <Button type="primary" icon={<CheckSquareOutlined />} disabled={!toHandle.length} onClick={() => setHandling({ mode: 'handle', rows: toHandle })}>
              {t('bulk.handle', { count: toHandle.length })}
            </Button>
          </Tooltip>
          <Tooltip title={selected.length && !toClose.length ? t('bulk.noneToClose') : undefined}>
            <Button danger icon={<LockOutlined />} disabled={!toClose.length} onClick={() => setSigning({ mode: 'close', rows: toClose })}>
              {t('bulk.close', { count: toClose.length })}
            </Button>
          </Tooltip>
          {selected.length > 0 && (
            <Typography.Text type="secondary">
              {t('bulk.selected', { count: selected.length })}
              <Button type="link" size="small" onClick={() => setSelected([])}>
                {t('bulk.clear')}
              </Button>
            </Typography.Text>
          )}
        </Space>
      )}
      <PagedTable
        ref={table}
        route={exceptionApi.page}
        params={params}
        size="middle"
        rowKey="id"
        columns={columns}
        refetchInterval={300_000}
        locale={{ emptyText: t('empty') }}
        scroll={{ x: 1235 }}
        rowSelection={canHandle ? { selectedRowKeys: selected.map((r) => r.id), preserveSelectedRowKeys: true, onChange: (_k, rows) => setSelected(rows.filter(Boolean)) } : undefined}
      />
      <HandleDialog target={handling} onClose={() => setHandling(null)} onDone={afterChange} />
      <SignDialog target={signing} onClose={() => setSigning(null)} onDone={afterChange} />
      <ExceptionDetailDrawer
        id={detailId}
        onClose={() => setDetailId(null)}
        onHandle={(r) => setHandling({ mode: 'handle', rows: [r] })}
        onCorrect={(r) => setHandling({ mode: 'correct', row: r })}
        onComment={(r) => setSigning({ mode: 'comment', row: r })}
        onCloseException={(r) => setSigning({ mode: 'close', rows: [r] })}
      />
    </PageCard>
  );
}

/** The duration of an ongoing exception, counting up every second. */
function OngoingFor({ startTs }: { startTs: number }) {
  const { t } = useTranslation('abnormal');
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, []);
  const d = formatDuration(exceptionSeconds({ ongoing: true, startTs }, now), (u, n) => t(`unit.${u}`, { count: n }), t('unit.sep'));
  return (
    <Tag color="red" variant="filled" data-ongoing>
      {t('ongoingFor', { d })}
    </Tag>
  );
}
