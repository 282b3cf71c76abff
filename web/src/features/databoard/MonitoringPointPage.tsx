/**
 * /databoard/monitoringPoint: the monitoring points as a table with their live carrier values
 * (by sample mode), state, zones and sensors online; filtered by the organisation tree, type,
 * state and name; the filtered view exports as CSV. Live through the shared stream.
 */
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Input, Segmented, Select, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BOARD_STATES, BOARD_STATE_COLORS, CARRIER_TYPES, climateOf, DEFAULT_PAGE_SIZE, PAGE_SIZES, type BoardState, type Climate } from '@coldwatch/contract';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { OrgTree, PageCard, TreePage, type SceneNode } from '../../ui';
import { fmtValue, formatInZone, RANGE_COLORS } from '../../lib/format';
import { downloadCsv } from '../../lib/csv';
import { AlarmSwitch } from '../carrier/AlarmSwitch';
import { zoneText } from '../carrier/carrierLabels';
import { selectionOf, type SceneSelection } from './SceneFilterTree';
import { carrierState, isOffline, type MonitorCarrier } from './monitorState';
import { useMonitorCarriers } from './useMonitorCarriers';

type Row = MonitorCarrier & { climate: Climate; state: BoardState; online: number };
type StateFilter = 'all' | BoardState;

const isStateFilter = (v: string | null): v is StateFilter => v === 'all' || (BOARD_STATES as readonly string[]).includes(v ?? '');

function Value({ v, state, unit }: { v: number | null; state: Climate['tempState']; unit: string }) {
  if (v === null) return <span style={{ color: '#bfbfbf' }}>--</span>;
  return (
    <b style={{ color: RANGE_COLORS[state], fontVariantNumeric: 'tabular-nums' }} data-range={state}>
      {fmtValue(v)} <small style={{ fontWeight: 'normal' }}>{unit}</small>
    </b>
  );
}

export default function MonitoringPointPage() {
  const { t } = useTranslation('monitor');
  const { user, can } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const tz = user?.timeZone ?? null;
  const [scene, setScene] = useState<SceneSelection>({});
  const [type, setType] = useState<number | undefined>();
  const [state, setState] = useState<StateFilter>(() => (isStateFilter(params.get('state')) ? (params.get('state') as StateFilter) : 'all'));
  const [search, setSearch] = useState('');
  const { carriers, list } = useMonitorCarriers({ sceneId: scene.sceneId, customerId: scene.customerId, type });
  const many = seesManyCustomers(user?.userType);

  const rows = useMemo<Row[]>(() => {
    const q = search.trim().toLowerCase();
    return carriers
      .filter((c) => (!type || c.type === type) && (!scene.customerId || c.customerId === scene.customerId))
      .filter((c) => !q || c.name.toLowerCase().includes(q) || c.sceneLabel.toLowerCase().includes(q) || c.sensors.some((s) => s.devNo.toLowerCase().includes(q)))
      .map((c) => ({ ...c, climate: climateOf(c), state: carrierState(c), online: c.sensors.filter((s) => !isOffline(s)).length }))
      .filter((r) => state === 'all' || r.state === state);
  }, [carriers, type, scene.customerId, search, state]);

  const typeLabel = (type: number) => t(`carrierType.${type}`, { defaultValue: String(type) });
  const stateLabel = (s: BoardState) => t(`points.state.${s}`);

  const columns: ColumnsType<Row> = [
    { title: t('points.col.alarm'), key: 'alarm', width: 60, fixed: 'left', align: 'center', render: (_, r) => <AlarmSwitch carrier={r} editable={can('editCarrier')} onChanged={() => void list.refetch()} /> },
    {
      title: t('points.col.name'),
      dataIndex: 'name',
      width: 170,
      fixed: 'left',
      ellipsis: true,
      sorter: (a, b) => a.name.localeCompare(b.name),
      render: (v: string, r) => <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.id}`)}>{v}</Typography.Link>,
    },
    {
      title: t('points.col.state'),
      dataIndex: 'state',
      width: 90,
      sorter: (a, b) => BOARD_STATES.indexOf(a.state) - BOARD_STATES.indexOf(b.state),
      render: (s: BoardState) => (
        <Tag color={BOARD_STATE_COLORS[s]} data-state={s} style={{ marginInlineEnd: 0 }}>
          {stateLabel(s)}
        </Tag>
      ),
    },
    { title: t('points.col.temp'), key: 'temp', width: 125, align: 'right', sorter: (a, b) => (a.climate.temp ?? -1e9) - (b.climate.temp ?? -1e9), render: (_, r) => <Value v={r.climate.temp} state={r.climate.tempState} unit="°C" /> },
    { title: t('points.col.hum'), key: 'hum', width: 125, align: 'right', sorter: (a, b) => (a.climate.hum ?? -1e9) - (b.climate.hum ?? -1e9), render: (_, r) => <Value v={r.climate.hum} state={r.climate.humState} unit="%RH" /> },
    { title: t('points.col.type'), dataIndex: 'type', width: 110, render: typeLabel },
    { title: t('points.col.scene'), dataIndex: 'sceneLabel', width: 130, ellipsis: true },
    ...(many ? [{ title: t('points.col.customer'), dataIndex: 'customerName', width: 130, ellipsis: true }] : []),
    { title: t('points.col.tempZone'), key: 'tz', width: 110, render: (_, r) => zoneText(r.tempMin, r.tempMax, '°C') },
    { title: t('points.col.humZone'), key: 'hz', width: 120, render: (_, r) => zoneText(r.humMin, r.humMax, '%RH') },
    {
      title: t('points.col.sensors'),
      key: 'sensors',
      width: 90,
      align: 'center',
      render: (_, r) => (
        <Tooltip title={r.sensors.map((s) => s.devNo).join(', ') || t('noSensors')}>
          {r.online}/{r.sensors.length}
        </Tooltip>
      ),
    },
    { title: t('points.col.sampleMode'), dataIndex: 'sampleMode', width: 100, render: (m: string) => t(`points.sample.${m}`) },
    {
      title: t('points.col.exceptions'),
      dataIndex: 'openExceptions',
      width: 90,
      align: 'right',
      render: (n: number, r) => (n > 0 ? <Typography.Link onClick={() => navigate(`/abnormal/dataex?carrierId=${r.id}`)} style={{ color: '#fa541c' }}>{n}</Typography.Link> : 0),
    },
    { title: t('points.col.updated'), key: 'ts', width: 140, sorter: (a, b) => (a.climate.ts ?? 0) - (b.climate.ts ?? 0), render: (_, r) => (r.climate.ts ? formatInZone(r.climate.ts, tz, 'MM-DD HH:mm:ss') : '--') },
  ];

  const exportView = () => {
    const header = [
      t('points.col.name'),
      t('points.col.type'),
      t('points.col.scene'),
      ...(many ? [t('points.col.customer')] : []),
      t('points.col.state'),
      `${t('points.col.temp')} (°C)`,
      `${t('points.col.hum')} (%RH)`,
      t('points.col.tempZone'),
      t('points.col.humZone'),
      t('points.col.sensors'),
      t('points.col.exceptions'),
      t('points.col.updated'),
    ];
    const body = rows.map((r) => [
      r.name,
      typeLabel(r.type),
      r.sceneLabel,
      ...(many ? [r.customerName] : []),
      stateLabel(r.state),
      r.climate.temp,
      r.climate.hum,
      zoneText(r.tempMin, r.tempMax, '°C'),
      zoneText(r.humMin, r.humMax, '%RH'),
      `${r.online}/${r.sensors.length}`,
      r.openExceptions,
      r.climate.ts ? formatInZone(r.climate.ts, tz) : '',
    ]);
    downloadCsv(`${t('points.file')}-${formatInZone(Date.now(), tz, 'YYYYMMDD-HHmm')}.csv`, header, body);
  };

  return (
    <TreePage tree={<OrgTree selectedKey={scene.code} onSelect={(n: SceneNode) => setScene(selectionOf(n))} />}>
      <PageCard title={t('points.title')}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 12 }}>
          <Select
            aria-label={t('filter.type')}
            style={{ width: 140 }}
            value={type ?? 0}
            options={[{ value: 0, label: t('filter.allTypes') }, ...CARRIER_TYPES.map((c) => ({ value: c.type, label: typeLabel(c.type) }))]}
            onChange={(v) => setType(v || undefined)}
          />
          <Segmented<StateFilter> value={state} onChange={setState} options={(['all', ...BOARD_STATES] as const).map((k) => ({ value: k, label: k === 'all' ? t('filter.all') : stateLabel(k) }))} />
          <Input.Search allowClear placeholder={t('filter.search')} style={{ width: 220 }} onSearch={setSearch} onChange={(e) => !e.target.value && setSearch('')} />
          <span style={{ flex: 1 }} />
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching} aria-label={t('refresh')} />
          <Button icon={<DownloadOutlined />} onClick={exportView} disabled={rows.length === 0} data-tour="export">
            {t('points.export', { count: rows.length })}
          </Button>
        </div>
        <Table<Row>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={list.isPending}
          scroll={{ x: 1400 }}
          pagination={{ defaultPageSize: DEFAULT_PAGE_SIZE, pageSizeOptions: PAGE_SIZES.map(String), showSizeChanger: true, showTotal: (n) => t('points.total', { count: n }) }}
          locale={{ emptyText: list.isError ? t('loadFailed') : t('empty') }}
        />
      </PageCard>
    </TreePage>
  );
}
