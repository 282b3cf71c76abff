/**
 * /databoard/overview: the whole scope at a glance. Carriers by state (the tiles home shows),
 * by carrier type and by scene; sensors and gateways that do not report; the latest
 * exceptions. Every figure leads into its list. The sums come from the server
 * (GET /service/dm/monitorOverview), not from the whole monitor list (62 MB at 100,000
 * sensors): read again when an exception opens or ends, and every half minute.
 */
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { Col, Row, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { BOARD_STATES, BOARD_STATE_COLORS, CARRIER_TYPES, DEVICE_STATUS, dmRefs, gatewayApi, type BoardState, type GroupCounts } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { CarrierKpis } from '../home/CarrierWidgets';
import { LatestExceptions } from '../home/ExceptionWidgets';
import { WidgetCard } from '../home/WidgetCard';
import { useExceptionRefresh } from './useLiveStream';
import '../home/home.css';

const OFFLINE_SHOWN = 10;
const REFRESH_S = 30;

function CountTable<K extends string | number>({ rows, title, onRow, testId, loading, error, retry }: {
  rows: GroupCounts<K>[];
  title: string;
  onRow?: (g: GroupCounts<K>, state?: BoardState) => void;
  testId: string;
  loading: boolean;
  error: unknown;
  retry: () => void;
}) {
  const { t } = useTranslation('monitor');
  const cell = (state: BoardState) => (n: number, g: GroupCounts<K>) =>
    n === 0 ? (
      <span style={{ color: '#bfbfbf' }}>0</span>
    ) : onRow ? (
      <Typography.Link style={{ color: BOARD_STATE_COLORS[state] }} onClick={() => onRow(g, state)}>
        {n}
      </Typography.Link>
    ) : (
      <b style={{ color: BOARD_STATE_COLORS[state] }}>{n}</b>
    );
  const columns: ColumnsType<GroupCounts<K>> = [
    // The group takes what the counts leave: at 1440 px every column shows; narrower, the table scrolls.
    { title: t('overview.col.group'), dataIndex: 'label', fixed: 'left', ellipsis: true, render: (v: string, g) => (onRow ? <Typography.Link onClick={() => onRow(g)}>{v}</Typography.Link> : v) },
    { title: t('overview.col.total'), dataIndex: 'total', width: 64, align: 'right' },
    ...BOARD_STATES.map((s) => ({ title: t(`points.state.${s}`), dataIndex: s, width: 84, align: 'right' as const, render: cell(s) })),
  ];
  return (
    <WidgetCard title={title} loading={loading} error={error} empty={rows.length === 0} onRetry={retry} minHeight={200} testId={testId}>
      <Table<GroupCounts<K>> size="small" rowKey={(g) => String(g.key)} columns={columns} dataSource={rows} pagination={rows.length > 8 ? { pageSize: 8, size: 'small' } : false} scroll={{ x: 500 }} />
    </WidgetCard>
  );
}

export default function OverviewPage() {
  const { t } = useTranslation('monitor');
  const navigate = useNavigate();
  const { user, can } = useAuth();
  const tz = user?.timeZone ?? null;
  const many = seesManyCustomers(user?.userType);
  const list = useCall(dmRefs.monitorOverview, undefined, { staleTime: 5_000, refetchInterval: REFRESH_S * 1000, refetchIntervalInBackground: false });
  useExceptionRefresh(() => void list.refetch());
  const gateways = useCall(gatewayApi.page, { query: { status: DEVICE_STATUS.offline, iDisplayStart: 0, iDisplayLength: OFFLINE_SHOWN } }, { enabled: can('viewGateway'), refetchInterval: 60_000 });

  const byType = useMemo(() => (list.data?.byType ?? []).map((g) => ({ ...g, label: t(`carrierType.${g.key}`, { defaultValue: String(g.key) }) })), [list.data, t]);
  const byScene = useMemo(() => (list.data?.byScene ?? []).map((g) => ({ ...g, label: many ? `${g.customerName} / ${g.label}` : g.label })), [list.data, many]);
  const offline = list.data?.offlineSensors ?? { total: 0, rows: [] };
  const routeOf = (type: number) => CARRIER_TYPES.find((c) => c.type === type)?.route;
  const common = { loading: list.isPending, error: list.error, retry: () => void list.refetch() };

  return (
    <div className="cw-home">
      <CarrierKpis enabled />
      <Row gutter={[12, 12]} className="cw-home-row">
        <Col xs={24} xl={12}>
          <CountTable
            title={t('overview.byType')}
            rows={byType}
            testId="overview-by-type"
            onRow={(g, state) => navigate(state ? `/databoard/monitoringPoint?state=${state}` : (routeOf(g.key) ?? '/databoard/monitoringPoint'))}
            {...common}
          />
        </Col>
        <Col xs={24} xl={12}>
          <CountTable title={t('overview.byScene')} rows={byScene} testId="overview-by-scene" {...common} />
        </Col>
        <Col xs={24} xl={12}>
          <WidgetCard title={t('overview.offlineSensors', { count: offline.total })} {...common} onRetry={common.retry} empty={offline.total === 0} minHeight={200} testId="overview-offline-sensors">
            <ul className="cw-latest">
              {offline.rows.slice(0, OFFLINE_SHOWN).map((sensor) => (
                <li key={sensor.id}>
                  <Tag color="default">{t(`sensorStatus.${sensor.status}`, { defaultValue: String(sensor.status) })}</Tag>
                  <div className="cw-latest-main">
                    <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${sensor.carrierId}`)}>{sensor.carrierName}</Typography.Link>
                    <div className="cw-latest-meta">
                      {sensor.devNo} · {sensor.lastTs ? t('overview.lastSeen', { time: formatInZone(sensor.lastTs, tz, 'MM-DD HH:mm') }) : t('noReading')}
                    </div>
                  </div>
                </li>
              ))}
            </ul>
            {offline.total > OFFLINE_SHOWN && (
              <Typography.Link onClick={() => navigate('/databoard/monitoringPoint?state=offline')}>{t('map.more', { count: offline.total - OFFLINE_SHOWN })}</Typography.Link>
            )}
          </WidgetCard>
        </Col>
        {can('viewGateway') && (
          <Col xs={24} xl={12}>
            <WidgetCard
              title={t('overview.offlineGateways', { count: gateways.data?.total ?? 0 })}
              loading={gateways.isPending}
              error={gateways.error}
              empty={gateways.data?.rows.length === 0}
              onRetry={() => void gateways.refetch()}
              minHeight={200}
              testId="overview-offline-gateways"
            >
              <ul className="cw-latest">
                {gateways.data?.rows.map((g) => (
                  <li key={g.id}>
                    <Tag color="default">{t('sensorStatus.0')}</Tag>
                    <div className="cw-latest-main">
                      <span>{g.name || g.sn}</span>
                      <div className="cw-latest-meta">
                        {g.sn} · {g.lastSeenAt ? t('overview.lastSeen', { time: formatInZone(g.lastSeenAt, tz, 'MM-DD HH:mm') }) : t('noReading')}
                      </div>
                    </div>
                  </li>
                ))}
              </ul>
            </WidgetCard>
          </Col>
        )}
        {can('viewEx') && (
          <Col xs={24}>
            <LatestExceptions />
          </Col>
        )}
      </Row>
    </div>
  );
}
