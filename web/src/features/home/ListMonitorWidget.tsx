/**
 * Home widget "list monitoring" (spec §2): the carriers with their current temperature and
 * humidity, the abnormal first: the table's first rows sorted by state on the server (not the
 * whole list), live for their sensors; each opens its detail page.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { BOARD_STATE_COLORS, climateOf, RANGE_COLORS } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { fmtValue, formatInZone } from '../../lib/format';
import { carrierState } from '../databoard/monitorState';
import { useMonitorTable } from '../databoard/useMonitorTable';
import { MonitorWidgetCard } from './WidgetCard';

const SHOWN = 8;
const colorOf = (state: string) => (state === 'high' ? RANGE_COLORS.high : state === 'low' ? RANGE_COLORS.low : undefined);

export default function ListMonitorWidget() {
  const { t } = useTranslation('home');
  const { user } = useAuth();
  // Who needs a look first (abnormal, offline, normal, stopped), then by name.
  const { carriers, page: q, total } = useMonitorTable({ state: 'all', sort: 'state', iDisplayStart: 0, iDisplayLength: SHOWN });
  const rows = useMemo(() => carriers.map((c) => ({ c, state: carrierState(c), climate: climateOf(c) })), [carriers]);
  return (
    <MonitorWidgetCard title={t('widget.listMonitor')} to="/databoard/monitoringPoint" testId="widget-list-monitor" list={q} empty={carriers.length === 0}>
      <Table
        size="small"
        pagination={false}
        rowKey={(r) => r.c.id}
        dataSource={rows}
        scroll={{ x: 'max-content' }}
        columns={[
          { title: t('list.name'), key: 'name', render: (_, r) => <Link to={`/carrierDetailPage?id=${r.c.id}`}>{r.c.name}</Link> },
          { title: t('list.state'), key: 'state', render: (_, r) => <Tag color={BOARD_STATE_COLORS[r.state]}>{t(`kpi.${r.state}`)}</Tag> },
          { title: t('list.temp'), key: 'temp', align: 'right', render: (_, r) => <span style={{ color: colorOf(r.climate.tempState) }}>{fmtValue(r.climate.temp)} °C</span> },
          { title: t('list.hum'), key: 'hum', align: 'right', render: (_, r) => <span style={{ color: colorOf(r.climate.humState) }}>{fmtValue(r.climate.hum)} %RH</span> },
          { title: t('list.time'), key: 'ts', render: (_, r) => (r.climate.ts ? formatInZone(r.climate.ts, user?.timeZone, 'MM-DD HH:mm') : '--') },
        ]}
      />
      {total > SHOWN && <div className="cw-widget-more">{t('list.more', { count: total - SHOWN })}</div>}
    </MonitorWidgetCard>
  );
}
