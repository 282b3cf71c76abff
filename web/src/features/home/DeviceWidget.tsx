import { useRef } from 'react';
import { useQueries } from '@tanstack/react-query';
import { Col, Progress, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { DEVICE_STATUS, gatewayRefs, sensorRefs, type CallInput, type gatewayApi, type sensorApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { percent } from './homeLogic';
import { WidgetCard } from './WidgetCard';
import { useLiveStream } from '../databoard/useLiveStream';

/** A device going online, offline or stopped changes the running counts: read them again, at most this often. */
const LIVE_REFRESH_MS = 10_000;

const one = { iDisplayStart: 0, iDisplayLength: 1 };
const sensorTotal = (filters: Omit<CallInput<typeof sensorApi.page>['query'], keyof typeof one> = {}) => call(sensorRefs.page, { query: { ...one, ...filters } }).then((r) => r.total);
const gatewayTotal = (filters: Omit<CallInput<typeof gatewayApi.page>['query'], keyof typeof one> = {}) => call(gatewayRefs.page, { query: { ...one, ...filters } }).then((r) => r.total);

/**
 * Bound gateway / sensor statistics (spec §2 home widget): totals, how many sensors are bound
 * to a carrier, how many devices are running. Each figure is the `total` of a one-row page.
 */
export function DeviceWidget({ sensors, gateways }: { sensors: boolean; gateways: boolean }) {
  const { t } = useTranslation('home');
  const queries = useQueries({
    queries: [
      { queryKey: ['home', 'sensors', 'all'], queryFn: () => sensorTotal(), enabled: sensors },
      { queryKey: ['home', 'sensors', 'bound'], queryFn: () => sensorTotal({ bound: 'true' }), enabled: sensors },
      { queryKey: ['home', 'sensors', 'running'], queryFn: () => sensorTotal({ status: DEVICE_STATUS.running }), enabled: sensors },
      { queryKey: ['home', 'gateways', 'all'], queryFn: () => gatewayTotal(), enabled: gateways },
      { queryKey: ['home', 'gateways', 'running'], queryFn: () => gatewayTotal({ status: DEVICE_STATUS.running }), enabled: gateways },
    ],
  });
  const [sAll, sBound, sRun, gAll, gRun] = queries;
  const last = useRef(0);
  useLiveStream((events) => {
    if (!events.some((e) => e.type === 'deviceStatus') || Date.now() - last.current < LIVE_REFRESH_MS) return;
    last.current = Date.now();
    for (const q of [sRun, gRun]) void q.refetch();
  });
  const used = [...(sensors ? [sAll, sBound, sRun] : []), ...(gateways ? [gAll, gRun] : [])];
  const loading = used.some((q) => q.isPending);
  const error = used.find((q) => q.isError)?.error;
  const n = (q: (typeof queries)[number]) => (q.data as number | undefined) ?? 0;

  return (
    <WidgetCard
      title={t('devicesTitle')}
      loading={loading}
      error={error}
      onRetry={() => used.forEach((q) => q.refetch())}
      testId="widget-devices"
    >
      <Row gutter={[16, 20]}>
        {sensors && (
          <>
            <Col span={8}>
              <Statistic title={t('devices.sensors')} value={n(sAll)} />
            </Col>
            <Col span={8}>
              <Statistic title={t('devices.sensorsBound')} value={n(sBound)} suffix={<span className="cw-stat-suffix">/ {n(sAll)}</span>} />
            </Col>
            <Col span={8}>
              <Statistic title={t('devices.sensorsUnbound')} value={Math.max(0, n(sAll) - n(sBound))} />
            </Col>
            <Col span={24}>
              <div className="cw-progress-label">
                <span>{t('devices.boundRate')}</span>
                <span>{percent(n(sBound), n(sAll))}%</span>
              </div>
              <Progress percent={percent(n(sBound), n(sAll))} showInfo={false} strokeColor="#1d6fe0" />
              <div className="cw-progress-label">
                <span>{t('devices.sensorsRunning')}</span>
                <span>
                  {n(sRun)} / {n(sAll)}
                </span>
              </div>
              <Progress percent={percent(n(sRun), n(sAll))} showInfo={false} strokeColor="#16a34a" />
            </Col>
          </>
        )}
        {gateways && (
          <>
            <Col span={8}>
              <Statistic title={t('devices.gateways')} value={n(gAll)} />
            </Col>
            <Col span={16}>
              <div className="cw-progress-label">
                <span>{t('devices.gatewaysRunning')}</span>
                <span>
                  {n(gRun)} / {n(gAll)}
                </span>
              </div>
              <Progress percent={percent(n(gRun), n(gAll))} showInfo={false} strokeColor="#16a34a" />
            </Col>
          </>
        )}
      </Row>
    </WidgetCard>
  );
}
