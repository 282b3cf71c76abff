/**
 * Home widget "alarm mode statistics" (spec §2): the carriers by their alarm switch as the board
 * colours it (green on, red off, grey no trigger set; spec §2) with the paused ones apart, and
 * how many carriers' alarms go out by e-mail, SMS and voice. Live with the monitor list.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Alert, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE_CHANNELS } from '@coldwatch/contract';
import { useMonitorCarriers } from '../databoard/useMonitorCarriers';
import { HomeChart, type HomeChartOption } from './HomeChart';
import { WidgetCard } from './WidgetCard';
import { summariseAlarms } from './alarmLogic';

const SWITCH_COLORS = { on: '#16a34a', off: '#dc2626', noTrigger: '#9ca3af', paused: '#f59e0b' } as const;

export default function AlarmModeWidget() {
  const { t } = useTranslation('home');
  const { carriers, list: q } = useMonitorCarriers();
  const s = useMemo(() => (q.data ? summariseAlarms(carriers) : undefined), [q.data, carriers]);
  const option = useMemo<HomeChartOption>(
    () => ({
      tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
      legend: { orient: 'vertical', right: 4, top: 'middle', itemWidth: 10, itemHeight: 10, textStyle: { fontSize: 12 } },
      series: [
        {
          type: 'pie',
          radius: ['45%', '70%'],
          center: ['32%', '50%'],
          label: { show: false },
          data: (Object.keys(SWITCH_COLORS) as (keyof typeof SWITCH_COLORS)[]).map((k) => ({ name: t(`alarmMode.${k}`), value: s?.[k] ?? 0, itemStyle: { color: SWITCH_COLORS[k] } })),
        },
      ],
    }),
    [s, t],
  );
  return (
    <WidgetCard
      title={t('widget.alarmMode')}
      extra={<Link to="/databoard/monitoringPoint">{t('viewAll')}</Link>}
      loading={q.isPending}
      error={q.error}
      empty={carriers.length === 0}
      onRetry={() => void q.refetch()}
      testId="widget-alarm-mode"
    >
      <HomeChart option={option} height={170} />
      <Row gutter={8}>
        {NOTICE_CHANNELS.map((ch) => (
          <Col span={8} key={ch}>
            <Statistic title={t(`alarmMode.channel.${ch}`)} value={s?.byChannel[ch] ?? 0} />
          </Col>
        ))}
      </Row>
      {!!s?.reachNobody && <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('reachNobody', { count: s.reachNobody, names: '' }).replace(/[:：]\s*$/, '')} />}
    </WidgetCard>
  );
}
