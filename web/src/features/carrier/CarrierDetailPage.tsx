/**
 * /carrierDetailPage?id=: one monitoring point (spec §2 hidden detail route): live values by
 * its sample mode, today's chart, zones, bound devices and their states, open exceptions, the
 * alarm switch with its log.
 */
import { useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Alert, Badge, Button, Card, Col, Descriptions, Empty, Row, Select, Space, Spin, Table, Tabs, Tag, Typography } from 'antd';
import { EditOutlined, LineChartOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { alarmLogApi, carrierApi, climateOf, exceptionApi, type LiveEvent, type SysLogRow } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PageCard, PagedTable } from '../../ui';
import { fmtValue, formatInZone, rangeState, RANGE_COLORS } from '../../lib/format';
import { CarrierCard } from '../databoard/CarrierCard';
import { logContent } from '../log/logContent';
import { applyEvents, type MonitorCarrier } from '../databoard/monitorState';
import { useLiveStream } from '../databoard/useLiveStream';
import { DayChart } from '../history/DayChart';
import { AlarmSwitch } from './AlarmSwitch';
import { CarrierDialog } from './CarrierDialog';
import { carrierStatusLabel, carrierTypeLabel, STATUS_COLORS, zoneText } from './carrierLabels';
import '../databoard/monitor.css';

export default function CarrierDetailPage() {
  const { t } = useTranslation('carrier');
  const { can, user } = useAuth();
  const navigate = useNavigate();
  const tz = user?.timeZone ?? null;
  const [params] = useSearchParams();
  const id = Number(params.get('id')) || 0;
  const atom = useCall(carrierApi.atom, { params: { id } }, { enabled: id > 0 });
  const [live, setLive] = useState<MonitorCarrier[]>([]);
  const [editing, setEditing] = useState(false);
  const [chartDev, setChartDev] = useState<string | undefined>();

  useEffect(() => {
    if (atom.data) setLive([{ ...atom.data.carrier, openExceptions: atom.data.openExceptions, sensors: atom.data.sensors }]);
  }, [atom.data]);
  const refetch = atom.refetch;
  const onEvents = useCallback(
    (events: LiveEvent[]) => {
      setLive((cur) => applyEvents(cur, events));
      if (events.some((e) => e.type === 'exception')) void refetch();
    },
    [refetch],
  );
  useLiveStream(onEvents);

  const c = live[0];
  const sensors = useMemo(() => c?.sensors ?? [], [c]);
  const climate = sensors.filter((s) => s.type !== 'gas' && s.type !== 'magnet');
  const devNo = chartDev ?? climate[0]?.devNo;

  if (!id) return <PageCard><Empty description={t('detail.noId')} /></PageCard>;
  if (atom.isError) return <PageCard><Alert type="error" showIcon title={t('detail.notFound')} /></PageCard>;
  if (!c) return <Spin style={{ display: 'block', padding: 80 }} />;

  // The carrier's one value by its sample mode: the same definition as the board and the map (contract board.ts).
  const { temp, hum } = climateOf(c);
  const big = (v: number | null, min: number | null, max: number | null, unit: string, label: string) => (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div style={{ fontSize: 34, fontWeight: 600, lineHeight: 1.2, color: RANGE_COLORS[rangeState(v, min, max)] }} data-range={rangeState(v, min, max)}>
        {fmtValue(v)}
        <small style={{ fontSize: 14, marginInlineStart: 4 }}>{unit}</small>
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('detail.zone')}: {zoneText(min, max, unit)}
      </Typography.Text>
    </div>
  );

  return (
    <Space direction="vertical" size={12} style={{ width: '100%' }}>
      <PageCard
        title={
          <Space wrap>
            <AlarmSwitch carrier={c} editable={can('editCarrier')} onChanged={() => void atom.refetch()} />
            <span>{c.name}</span>
            <Tag>{carrierTypeLabel(t, c.type)}</Tag>
            <Tag color={STATUS_COLORS[c.status]}>{carrierStatusLabel(t, c.status)}</Tag>
            <Badge status={c.state === 'abnormal' ? 'error' : c.state === 'normal' ? 'success' : 'default'} text={t(`state.${c.state}`)} />
          </Space>
        }
        extra={
          <Space wrap>
            {devNo && (
              // The carrier's own value (its sample mode over its sensors); its sensors are in the picker there.
              <Button icon={<LineChartOutlined />} onClick={() => navigate(`/historyData?carrierId=${c.id}`)}>
                {t('action.history')}
              </Button>
            )}
            {can('editCarrier') && (
              <Button icon={<EditOutlined />} onClick={() => setEditing(true)}>
                {t('action.edit')}
              </Button>
            )}
          </Space>
        }
      >
        <Row gutter={[24, 16]}>
          <Col xs={24} md={8}>
            <Card size="small" title={t('detail.value', { mode: t(`sampleMode.${c.sampleMode}`) })}>
              <Space size={32} wrap>
                {big(temp, c.tempMin, c.tempMax, '°C', t('detail.temp'))}
                {(c.humMin !== null || hum !== null) && big(hum, c.humMin, c.humMax, '%RH', t('detail.hum'))}
              </Space>
            </Card>
          </Col>
          <Col xs={24} md={16}>
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2 }}
              items={[
                { key: 'scene', label: t('col.scene'), children: c.sceneLabel },
                { key: 'customer', label: t('col.customer'), children: c.customerName },
                { key: 'mode', label: t('col.mode'), children: t(`mode.${c.mode}`, { defaultValue: c.mode }) },
                { key: 'load', label: t('col.loadType'), children: t(`loadType.${c.loadType}`) },
                { key: 'methods', label: t('form.alarmMethods'), children: c.alarmMethods.map((m) => t(`channel.${m}`)).join(', ') },
                { key: 'open', label: t('detail.openExceptions'), children: c.openExceptions ? <Tag color="red">{c.openExceptions}</Tag> : 0 },
                { key: 'trace', label: t('form.traceable'), children: c.traceable ? t('yes') : t('no') },
                { key: 'kpi', label: t('form.isKpi'), children: c.isKpi ? t('yes') : t('no') },
              ]}
            />
          </Col>
        </Row>
      </PageCard>

      <Row gutter={[12, 12]}>
        <Col xs={24} lg={9}>
          <CarrierCard carrier={c} timeZone={tz} onSensor={(s) => setChartDev(s.devNo)} />
        </Col>
        <Col xs={24} lg={15}>
          <Card
            size="small"
            title={t('detail.today')}
            extra={
              climate.length > 1 && (
                <Select size="small" style={{ width: 180 }} value={devNo} onChange={setChartDev} options={climate.map((s) => ({ value: s.devNo, label: s.devNo }))} aria-label={t('detail.chartDevice')} />
              )
            }
          >
            {devNo ? <DayChart deviceNo={devNo} timeZone={tz} /> : <Empty description={t('noSensors')} />}
          </Card>
        </Col>
      </Row>

      <Card size="small">
        <Tabs
          items={[
            {
              key: 'devices',
              label: t('detail.devices'),
              children: (
                <Space direction="vertical" style={{ width: '100%' }}>
                  <Table
                    size="small"
                    rowKey="id"
                    pagination={false}
                    dataSource={atom.data?.sensors ?? []}
                    scroll={{ x: 700 }}
                    locale={{ emptyText: t('noSensors') }}
                    columns={[
                      { title: t('col.devNo'), dataIndex: 'devNo', render: (v: string) => <Typography.Link onClick={() => navigate(`/historyData?deviceNo=${encodeURIComponent(v)}`)}>{v}</Typography.Link> },
                      { title: t('col.sensorType'), dataIndex: 'type', render: (v: string) => t(`sensorType.${v}`, { defaultValue: v }) },
                      { title: t('col.deviceStatus'), dataIndex: 'status', render: (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={t(`deviceStatus.${v}`)} /> },
                      { title: t('detail.temp'), dataIndex: 'temp', render: (v: number | null) => fmtValue(v) },
                      { title: t('detail.hum'), dataIndex: 'hum', render: (v: number | null) => fmtValue(v) },
                      { title: t('col.gateway'), dataIndex: 'gatewaySn' },
                      { title: t('col.lastTs'), dataIndex: 'lastTs', render: (v: number | null) => formatInZone(v, tz) },
                    ]}
                  />
                  <Table
                    size="small"
                    rowKey="id"
                    pagination={false}
                    dataSource={atom.data?.gateways ?? []}
                    scroll={{ x: 600 }}
                    locale={{ emptyText: t('detail.noGateways') }}
                    columns={[
                      { title: t('col.gateway'), dataIndex: 'sn' },
                      { title: t('col.gatewayName'), dataIndex: 'name' },
                      { title: t('col.deviceStatus'), dataIndex: 'status', render: (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={t(`deviceStatus.${v}`)} /> },
                      { title: t('col.power'), dataIndex: 'power', render: (v: string | null) => (v ? t(`power.${v}`, { defaultValue: v }) : '--') },
                      { title: t('col.lastSeen'), dataIndex: 'lastSeenAt', render: (v: number | null) => formatInZone(v, tz) },
                    ]}
                  />
                </Space>
              ),
            },
            {
              key: 'exceptions',
              label: t('detail.exceptions'),
              children: (
                <PagedTable
                  route={exceptionApi.page}
                  params={{ carrierId: id, ongoing: 'true' }}
                  size="small"
                  rowKey="id"
                  locale={{ emptyText: t('detail.noOpen') }}
                  onRow={() => ({ onClick: () => navigate(`/abnormal/dataex?carrierId=${id}`), style: { cursor: 'pointer' } })}
                  columns={[
                    { title: t('col.devNo'), dataIndex: 'devNo' },
                    { title: t('detail.category'), dataIndex: 'category', render: (v: string) => t(`abnormal:category.${v}`, { defaultValue: v }) },
                    { title: t('detail.start'), dataIndex: 'startTs', render: (v: number) => formatInZone(v, tz) },
                    { title: t('detail.peak'), dataIndex: 'peakValue', render: (v: number | null) => fmtValue(v) },
                  ]}
                />
              ),
            },
            {
              key: 'alarmLog',
              label: t('detail.alarmLog'),
              children: (
                <PagedTable
                  route={alarmLogApi.page}
                  params={{ carrierId: id }}
                  size="small"
                  rowKey="id"
                  locale={{ emptyText: t('detail.noSwitches') }}
                  columns={[
                    { title: t('log.time'), dataIndex: 'time', render: (v: number) => formatInZone(v, tz) },
                    { title: t('log.switch'), dataIndex: 'alarmOn', render: (v: boolean) => (v ? <Tag color="green">{t('alarm.on')}</Tag> : <Tag color="red">{t('alarm.off')}</Tag>) },
                    { title: t('log.operator'), dataIndex: 'operator' },
                  ]}
                />
              ),
            },
            {
              key: 'operateRecord',
              label: t('detail.operateRecord'),
              children: (
                <PagedTable
                  route={carrierApi.operateRecord}
                  params={{ id }}
                  size="small"
                  rowKey="id"
                  locale={{ emptyText: t('detail.noOperations') }}
                  columns={[
                    { title: t('log.time'), dataIndex: 'time', width: 170, render: (v: number) => formatInZone(v, tz) },
                    { title: t('log.operator'), dataIndex: 'operator', width: 140 },
                    { title: t('log.content'), key: 'content', render: (_: unknown, r: SysLogRow) => logContent(t, r) },
                  ]}
                />
              ),
            },
          ]}
        />
      </Card>
      {editing && <CarrierDialog target={c} onClose={() => setEditing(false)} onDone={() => void atom.refetch()} />}
    </Space>
  );
}
