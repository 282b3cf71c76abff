/**
 * Home widget "alarm mode statistics" (spec §2): the carriers by their alarm switch as the board
 * colours it (green on, red off, grey no trigger set; spec §2) with the paused ones apart, and
 * how many carriers' alarms go out by e-mail, SMS and voice. Summed on the server
 * (monitorSummary's `alarms`, the request home's carrier tiles make too), not from the list.
 */
import { useMemo } from 'react';
import { Alert, Col, Row, Statistic } from 'antd';
import { useTranslation } from 'react-i18next';
import { NOTICE_CHANNELS } from '@coldwatch/contract';
import { useCarrierSummary } from '../databoard/useCarrierSummary';
import { donutOption, HomeChart } from './HomeChart';
import { MonitorWidgetCard } from './WidgetCard';

const SWITCH_COLORS = { on: '#16a34a', off: '#dc2626', noTrigger: '#9ca3af', paused: '#f59e0b' } as const;

export default function AlarmModeWidget() {
  const { t } = useTranslation('home');
  const q = useCarrierSummary();
  const s = q.data?.alarms;
  const option = useMemo(
    () => donutOption((Object.keys(SWITCH_COLORS) as (keyof typeof SWITCH_COLORS)[]).map((k) => ({ name: t(`alarmMode.${k}`), value: s?.[k] ?? 0, itemStyle: { color: SWITCH_COLORS[k] } })), '32%'),
    [s, t],
  );
  return (
    <MonitorWidgetCard title={t('widget.alarmMode')} to="/databoard/monitoringPoint" testId="widget-alarm-mode" list={q} empty={q.data?.total === 0}>
      <HomeChart option={option} height={170} />
      <Row gutter={8}>
        {NOTICE_CHANNELS.map((ch) => (
          <Col span={8} key={ch}>
            <Statistic title={t(`alarmMode.channel.${ch}`)} value={s?.byChannel[ch] ?? 0} />
          </Col>
        ))}
      </Row>
      {!!q.data?.reachNobody && <Alert type="warning" showIcon style={{ marginTop: 8 }} title={t('alarmMode.reachNobody', { count: q.data.reachNobody })} />}
    </MonitorWidgetCard>
  );
}
