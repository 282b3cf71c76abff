/**
 * /databoard/monitoringPoint: the monitoring points as a table with their live carrier values
 * (by sample mode), state, zones and sensors online; filtered by the organisation tree, type,
 * state and a search, sorted and paged on the server (useMonitorTable: the browser holds one
 * page, docs/scaling.md "The board at 100,000 points"); live for the rows on screen. The whole
 * filtered view exports as a job on the server (the download centre), in the table's order.
 */
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { Button, Input, Segmented, Select, Table, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType, SorterResult } from 'antd/es/table/interface';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BOARD_STATE_COLORS, CARRIER_TYPES, climateOf, DEFAULT_PAGE_SIZE, exportRefs, PAGE_SIZES, TABLE_FILTERS, type BoardState, type Climate, type TableFilter, type TableSort } from '@coldwatch/contract';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { OrgTree, PageCard, TreePage, type SceneNode } from '../../ui';
import { fmtValue, formatInZone, RANGE_COLORS } from '../../lib/format';
import { ExportButton } from '../download/ExportButton';
import { AlarmSwitch } from '../carrier/AlarmSwitch';
import { zoneText } from '../carrier/carrierLabels';
import { selectionOf, type SceneSelection } from './SceneFilterTree';
import { carrierState, isOffline, type MonitorCarrier } from './monitorState';
import { useMonitorTable } from './useMonitorTable';
import { sortingOf, type Sorting } from './tableQuery';

type Row = MonitorCarrier & { climate: Climate; state: BoardState; online: number };
const isStateFilter = (v: string | null): v is TableFilter => (TABLE_FILTERS as readonly string[]).includes(v ?? '');

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
  const [state, setState] = useState<TableFilter>(() => (isStateFilter(params.get('state')) ? (params.get('state') as TableFilter) : 'all'));
  const [search, setSearch] = useState('');
  const [sorting, setSorting] = useState<Sorting>({});
  const [paging, setPaging] = useState({ current: 1, size: DEFAULT_PAGE_SIZE });
  const filters = { sceneId: scene.sceneId, customerId: scene.customerId, type, search: search.trim() || undefined, state };
  const { carriers, page, total } = useMonitorTable({ ...filters, ...sorting, iDisplayStart: (paging.current - 1) * paging.size, iDisplayLength: paging.size });
  const many = seesManyCustomers(user?.userType);
  // A new filter starts again at the first page.
  const refilter = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPaging((p) => ({ ...p, current: 1 }));
  };
  const sortOrder = (key: TableSort) => (sorting.sort === key ? (sorting.order === 'desc' ? 'descend' : 'ascend') : null);

  const rows = useMemo<Row[]>(() => carriers.map((c) => ({ ...c, climate: climateOf(c), state: carrierState(c), online: c.sensors.filter((s) => !isOffline(s)).length })), [carriers]);

  const typeLabel = (type: number) => t(`carrierType.${type}`, { defaultValue: String(type) });
  const stateLabel = (s: BoardState) => t(`points.state.${s}`);

  const columns: ColumnsType<Row> = [
    { title: t('points.col.alarm'), key: 'alarm', width: 60, fixed: 'left', align: 'center', render: (_, r) => <AlarmSwitch carrier={r} editable={can('editCarrier')} onChanged={() => void page.refetch()} /> },
    {
      title: t('points.col.name'),
      key: 'name',
      dataIndex: 'name',
      width: 170,
      fixed: 'left',
      ellipsis: true,
      sorter: true,
      sortOrder: sortOrder('name'),
      render: (v: string, r) => <Typography.Link onClick={() => navigate(`/carrierDetailPage?id=${r.id}`)}>{v}</Typography.Link>,
    },
    {
      title: t('points.col.state'),
      key: 'state',
      dataIndex: 'state',
      width: 90,
      sorter: true,
      sortOrder: sortOrder('state'),
      render: (s: BoardState) => (
        <Tag color={BOARD_STATE_COLORS[s]} data-state={s} style={{ marginInlineEnd: 0 }}>
          {stateLabel(s)}
        </Tag>
      ),
    },
    { title: t('points.col.temp'), key: 'temp', width: 125, align: 'right', sorter: true, sortOrder: sortOrder('temp'), render: (_, r) => <Value v={r.climate.temp} state={r.climate.tempState} unit="°C" /> },
    { title: t('points.col.hum'), key: 'hum', width: 125, align: 'right', sorter: true, sortOrder: sortOrder('hum'), render: (_, r) => <Value v={r.climate.hum} state={r.climate.humState} unit="%RH" /> },
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
    { title: t('points.col.updated'), key: 'ts', width: 140, sorter: true, sortOrder: sortOrder('ts'), render: (_, r) => (r.climate.ts ? formatInZone(r.climate.ts, tz, 'MM-DD HH:mm:ss') : '--') },
  ];

  const onChange = (p: { current?: number; pageSize?: number }, sorter: SorterResult<Row> | SorterResult<Row>[]) => {
    const one = Array.isArray(sorter) ? sorter[0] : sorter;
    const next = sortingOf(one);
    const resorted = next.sort !== sorting.sort || next.order !== sorting.order;
    setSorting(next);
    setPaging({ current: resorted ? 1 : (p.current ?? 1), size: p.pageSize ?? paging.size });
  };

  return (
    <TreePage tree={<OrgTree selectedKey={scene.code} onSelect={(n: SceneNode) => refilter(setScene)(selectionOf(n))} />}>
      <PageCard title={t('points.title')}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 12 }}>
          <Select
            aria-label={t('filter.type')}
            style={{ width: 140 }}
            value={type ?? 0}
            options={[{ value: 0, label: t('filter.allTypes') }, ...CARRIER_TYPES.map((c) => ({ value: c.type, label: typeLabel(c.type) }))]}
            onChange={(v) => refilter(setType)(v || undefined)}
          />
          <Segmented<TableFilter> value={state} onChange={refilter(setState)} options={TABLE_FILTERS.map((k) => ({ value: k, label: k === 'all' ? t('filter.all') : stateLabel(k) }))} />
          <Input.Search allowClear maxLength={50} placeholder={t('filter.search')} style={{ width: 220 }} onSearch={refilter(setSearch)} onChange={(e) => !e.target.value && refilter(setSearch)('')} />
          <span style={{ flex: 1 }} />
          <Button icon={<ReloadOutlined />} onClick={() => void page.refetch()} loading={page.isFetching} aria-label={t('refresh')} />
          <span data-tour="export">
            <ExportButton def={exportRefs.monitorPoints} input={total ? { body: { ...filters, ...sorting, format: 'csv' } } : null} />
          </span>
        </div>
        <Table<Row>
          size="small"
          rowKey="id"
          columns={columns}
          dataSource={rows}
          loading={page.isPending || (page.isPlaceholderData && page.isFetching)}
          scroll={{ x: 1400 }}
          onChange={(p, _filters, sorter) => onChange(p, sorter)}
          pagination={{ current: paging.current, pageSize: paging.size, total, pageSizeOptions: PAGE_SIZES.map(String), showSizeChanger: true, showTotal: (n) => t('points.total', { count: n }) }}
          locale={{ emptyText: page.isError ? t('loadFailed') : t('empty') }}
        />
      </PageCard>
    </TreePage>
  );
}
