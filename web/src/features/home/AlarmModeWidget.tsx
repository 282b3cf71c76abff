/**
 * Home widget "alarm mode statistics" (spec §2): the carriers by their alarm switch as the board
 * colours it (green on, red off, grey no trigger set; spec §2) with the paused ones apart, and
 * how many carriers' alarms go out by e-mail, SMS and voice. Live with the monitor list.
 */
import { useMemo } from 'react';
import { Alert, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE_CHANNELS } from '@coldwatch/contract';
import { useMonitorCarriers } from '../databoard/useMonitorCarriers';
import { donutOption, HomeChart } from './HomeChart';
import { MonitorWidgetCard } from './WidgetCard';
import { summariseAlarms } from './alarmLogic';

const SWITCH_COLORS = { on: '#16a34a', off: '#dc2626', noTrigger: '#9ca3af', paused: '#f59e0b' } as const;

export default function AlarmModeWidget() {
  const { t } = useTranslation('home');
  const { carriers, list: q } = useMonitorCarriers();
  const s = useMemo(() => (q.data ? summariseAlarms(carriers) : undefined), [q.data, carriers]);
  const option = useMemo(
    () => donutOption((Object.keys(SWITCH_COLORS) as (keyof typeof SWITCH_COLORS)[]).map((k) => ({ name: t(`alarmMode.${k}`), value: s?.[k] ?? 0, itemStyle: { color: SWITCH_COLORS[k] } })), '32%'),
    [s, t],
  );
  return (
    <MonitorWidgetCard title={t('widget.alarmMode')} to="/databoard/monitoringPoint" testId="widget-alarm-mode" list={q} empty={carriers.length === 0}>
      <HomeChart option={option} height={170} />
      <Row gutter={8}>
        {NOTICE_CHANNELS.map((ch) => (
          <Col span={8} key={ch}>
            <Statistic title={t(`alarmMode.channel.${ch}`)} value={s?.byChannel[ch] ?? 0} />
          </Col>
        ))}
      </Row>
      {!!s?.reachNobody && <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('alarmMode.reachNobody', { count: s.reachNobody })} />}
    </MonitorWidgetCard>
  );
}
