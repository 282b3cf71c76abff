/**
 * Home widget "dashboard instance" (spec §2): a gauge per monitoring point, the temperature of
 * the carriers that most need a look (abnormal, then offline, then the rest), the dial's band
 * its zone: the table's first rows sorted by state on the server (not the whole list), live for
 * their sensors. Each gauge opens the carrier.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BOARD_STATE_COLORS, climateOf, RANGE_COLORS } from '@coldwatch/contract';
import { fmtValue } from '../../lib/format';
import { carrierState } from '../databoard/monitorState';
import { useMonitorTable } from '../databoard/useMonitorTable';
import { HomeChart } from './HomeChart';
import { asHomeOption } from './moreCharts';
import { MonitorWidgetCard } from './WidgetCard';
import { gaugeScale } from './dashboardLogic';

const SHOWN = 4;

function Gauge({ value, min, max, color }: { value: number | null; min: number | null; max: number | null; color: string }) {
  const option = useMemo(() => {
    const s = gaugeScale(value, min, max);
    return asHomeOption({
      series: [
        {
          type: 'gauge',
          min: s.from,
          max: s.to,
          radius: '95%',
          center: ['50%', '58%'],
          startAngle: 210,
          endAngle: -30,
          splitNumber: 4,
          axisLine: { lineStyle: { width: 8, color: s.bands.map(([at, band]) => [at, band === 'low' ? RANGE_COLORS.low : band === 'high' ? RANGE_COLORS.high : '#16a34a'] as [number, string]) } },
          pointer: { width: 4, length: '60%', itemStyle: { color } },
          axisTick: { show: false },
          splitLine: { length: 6, lineStyle: { width: 1 } },
          axisLabel: { distance: 10, fontSize: 9 },
          detail: { valueAnimation: false, fontSize: 16, offsetCenter: [0, '55%'], formatter: () => `${fmtValue(value)} °C` },
          data: [{ value: value ?? s.from }],
        },
      ],
    });
  }, [value, min, max, color]);
  return <HomeChart option={option} height={150} />;
}

export default function DashboardWidget() {
  const { t } = useTranslation('home');
  // Stopped carriers sort last: the first SHOWN by state hold every gauge there is to show.
  const { carriers, page: q } = useMonitorTable({ state: 'all', sort: 'state', iDisplayStart: 0, iDisplayLength: SHOWN });
  const shown = useMemo(() => carriers.map((c) => ({ c, state: carrierState(c), climate: climateOf(c) })).filter((x) => x.state !== 'stopped'), [carriers]);
  return (
    <MonitorWidgetCard title={t('widget.dashboard')} to="/databoard/deviceMonitor" testId="widget-dashboard" list={q} empty={shown.length === 0}>
      <Row gutter={[8, 8]}>
        {shown.map(({ c, state, climate }) => (
          <Col xs={12} key={c.id} data-carrier={c.id}>
            <Gauge value={climate.temp} min={c.tempMin} max={c.tempMax} color={BOARD_STATE_COLORS[state]} />
            <Link to={`/carrierDetailPage?id=${c.id}`} className="cw-gauge-name">
              <Typography.Text ellipsis style={{ maxWidth: '100%' }}>
                {c.name}
              </Typography.Text>
            </Link>
          </Col>
        ))}
      </Row>
    </MonitorWidgetCard>
  );
}
