import { useMemo } from 'react';
import { Alert, Card, Col, Row, Skeleton, Tooltip } from 'antd';
import { CheckCircleOutlined, DisconnectOutlined, ContainerOutlined, PauseCircleOutlined, WarningOutlined } from '@ant-design/icons';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CARRIER_STATUS } from '@coldwatch/contract';
import { useCarrierSummary } from '../databoard/useCarrierSummary';
import { errorMessage } from '../../app/errors';
import { donutOption, HomeChart } from './HomeChart';
import { WidgetCard } from './WidgetCard';


const STATE_TILES = [
  { key: 'total', icon: <ContainerOutlined />, color: '#1d6fe0', bg: '#e8f1fd' },
  { key: 'normal', icon: <CheckCircleOutlined />, color: '#16a34a', bg: '#e7f6ec' },
  { key: 'abnormal', icon: <WarningOutlined />, color: '#dc2626', bg: '#fdeaea' },
  { key: 'offline', icon: <DisconnectOutlined />, color: '#8c8c8c', bg: '#f2f2f2' },
  { key: 'stopped', icon: <PauseCircleOutlined />, color: '#64748b', bg: '#eef1f5' },
] as const;

/** Five tiles: carriers in all, normal, abnormal, offline, stopped (the states every view shares, board.ts). */
export function CarrierKpis({ enabled }: { enabled: boolean }) {
  const { t } = useTranslation('home');
  const navigate = useNavigate();
  const q = useCarrierSummary({ enabled });
  const s = q.data;
  return (
    <Row gutter={[12, 12]}>
      {STATE_TILES.map((tile) => {
        const value = !s ? undefined : tile.key === 'total' ? s.total : s.byState[tile.key];
        return (
          <Col key={tile.key} xs={12} sm={8} lg={{ flex: '20%' }}>
            <Card variant="borderless" className="cw-kpi" hoverable onClick={() => navigate(tile.key === 'total' ? '/databoard/monitoringPoint' : `/databoard/monitoringPoint?state=${tile.key}`)} data-testid={`kpi-${tile.key}`}>
              <div className="cw-kpi-icon" style={{ color: tile.color, background: tile.bg }}>
                {tile.icon}
              </div>
              <div className="cw-kpi-body">
                <div className="cw-kpi-label">{t(`kpi.${tile.key}`)}</div>
                {q.isPending ? (
                  <Skeleton.Button active size="small" />
                ) : q.isError ? (
                  <Tooltip title={errorMessage(q.error, t)}>
                    <div className="cw-kpi-value cw-kpi-error">—</div>
                  </Tooltip>
                ) : (
                  <div className="cw-kpi-value" style={{ color: tile.key === 'total' ? undefined : tile.color }}>
                    {value}
                  </div>
                )}
              </div>
            </Card>
          </Col>
        );
      })}
      {!!s?.reachNobody && (
        // An alarm that would reach nobody is found here, not at 3 a.m. (docs/alarms.md "An alarm that reaches nobody").
        <Col span={24}>
          <Alert
            type="warning"
            showIcon
            data-testid="reach-nobody"
            title={t('reachNobody', { count: s.reachNobody, names: s.reachNobodyNames.join(t('listSep')) + (s.reachNobody > s.reachNobodyNames.length ? t('listMore') : '') })}
            description={t('reachNobodyHelp')}
          />
        </Col>
      )}
    </Row>
  );
}

const STATUS_COLORS: Record<number, string> = { 1: '#1d6fe0', 2: '#94a3b8', 3: '#38bdf8', 4: '#f59e0b', 5: '#a78bfa' };

/** Carrier status statistics (spec §2 home widget): running, scrapped, spare, awaiting repair, defrost. */
export function CarrierStatusWidget() {
  const { t } = useTranslation('home');
  const q = useCarrierSummary();
  const s = q.data;
  const option = useMemo(
    () => donutOption(Object.entries(CARRIER_STATUS).map(([name, code]) => ({ name: t(`carrierStatus.${name}`), value: s?.byStatus[code] ?? 0, itemStyle: { color: STATUS_COLORS[code] } }))),
    [s, t],
  );
  return (
    <WidgetCard title={t('carrierStatusTitle')} loading={q.isPending} error={q.error} empty={s?.total === 0} onRetry={() => q.refetch()} testId="widget-carrier-status">
      <div className="cw-donut">
        <HomeChart option={option} height={230} />
        <div className="cw-donut-center">
          <div className="cw-donut-value">{s?.total ?? 0}</div>
          <div className="cw-donut-label">{t('kpi.total')}</div>
        </div>
      </div>
    </WidgetCard>
  );
}
