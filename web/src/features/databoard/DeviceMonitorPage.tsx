/**
 * /databoard/deviceMonitor: the live board. Carriers of the chosen organisation node as cards,
 * each sensor's latest temperature/humidity coloured against the carrier's zone; kept current by
 * the live stream, with a periodic refresh as the fallback. Filters, search and paging happen on
 * the server (useMonitorPage): the page holds one page of cards and the counts over all of them.
 */
import { useCallback, useMemo, useState, type CSSProperties } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Drawer, Empty, Grid, Input, Pagination, Segmented, Select, Spin } from 'antd';
import { ApartmentOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CARRIER_TYPES, MONITOR_FILTERS, type MonitorFilter } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { CarrierCard } from './CarrierCard';
import { SceneFilterTree, useAfterPaint, type SceneSelection } from './SceneFilterTree';
import { useMonitorPage } from './useMonitorPage';
import { useAlarmSound } from './useAlarmSound';
import { VirtualGrid } from '../../ui';
import type { MonitorSensor } from './monitorState';
import { BOARD_PAGE_SIZE } from './firstScreen';
import { RANGE_COLORS } from '../../lib/format';
import './monitor.css';

/** A legend swatch's colour, as the CSS variable monitor.css paints it with. */
const swatch = (color: string) => ({ '--c': color }) as CSSProperties;

/** Cards a page may hold (spec paging allows up to 100). */
const PAGE_SIZES = [20, 50, 100];

export default function DeviceMonitorPage() {
  const { t, i18n } = useTranslation('monitor');
  const num = (n: number) => n.toLocaleString(i18n.language);
  const navigate = useNavigate();
  const { user } = useAuth();
  const timeZone = user?.timeZone ?? null;

  const [selection, setSelection] = useState<SceneSelection>({});
  const [type, setType] = useState<number | undefined>();
  const [stateFilter, setStateFilter] = useState<MonitorFilter>('all');
  const [search, setSearch] = useState('');
  const [paging, setPaging] = useState({ current: 1, size: BOARD_PAGE_SIZE });
  // A new filter starts again at the first page.
  const filtered = <T,>(set: (v: T) => void) => (v: T) => {
    set(v);
    setPaging((p) => ({ ...p, current: 1 }));
  };
  // Spec §3 alarm volume and count: the board beeps when an exception opens.
  useAlarmSound();
  const { carriers, page, counts, total, streamState, refreshS, refetch } = useMonitorPage({
    sceneId: selection.sceneId,
    customerId: selection.customerId,
    type,
    search: search.trim(),
    state: stateFilter,
    iDisplayStart: (paging.current - 1) * paging.size,
    iDisplayLength: paging.size,
  });
  const summary = counts.data;
  // The organisation tree (an antd Tree over every scene, 1,111 at 100,000 sensors, and a call of
  // its own) and the pager mount after the first cards are painted, not before them.
  const painted = useAfterPaint(page.data !== undefined || page.isError);

  const openHistory = useCallback((s: MonitorSensor) => navigate(`/historyData?deviceNo=${encodeURIComponent(s.devNo)}`), [navigate]);

  // Undefined until measured: a desktop never flashes the drawer.
  const phone = Grid.useBreakpoint().md === false;
  const [treeOpen, setTreeOpen] = useState(false);

  const typeOptions = useMemo(
    () => [{ value: 0, label: t('filter.allTypes') }, ...CARRIER_TYPES.map((c) => ({ value: c.type, label: t(`carrierType.${c.type}`) }))],
    [t],
  );

  const tree = painted ? <SceneFilterTree value={selection} onChange={(v) => (filtered(setSelection)(v), setTreeOpen(false))} /> : null;
  return (
    <div className="cw-mon-page">
      {/* A phone shows the cards first; the organisation tree opens in a drawer. */}
      {phone ? (
        <Drawer open={treeOpen} onClose={() => setTreeOpen(false)} placement="left" size={300} title={t('orgTree')}>
          {tree}
        </Drawer>
      ) : (
        <aside className="cw-mon-tree" aria-label={t('orgTree')}>
          {tree}
        </aside>
      )}
      <section className="cw-mon-main">
        <div className="cw-mon-toolbar">
          {phone && (
            <Button icon={<ApartmentOutlined />} onClick={() => setTreeOpen(true)}>
              {t('orgTree')}
            </Button>
          )}
          <Select
            aria-label={t('filter.type')}
            style={{ width: 150 }}
            value={type ?? 0}
            options={typeOptions}
            onChange={(v) => filtered(setType)(v || undefined)}
          />
          <Segmented<MonitorFilter>
            value={stateFilter}
            onChange={filtered(setStateFilter)}
            className="cw-mon-states"
            options={MONITOR_FILTERS.map((k) => ({ value: k, label: summary ? `${t(`filter.${k}`)} ${num(summary.filters[k])}` : t(`filter.${k}`) }))}
          />
          <Input.Search allowClear placeholder={t('filter.search')} style={{ width: 220 }} onSearch={filtered(setSearch)} onChange={(e) => !e.target.value && filtered(setSearch)('')} />
          <span className="cw-mon-spacer" />
          <span className={`cw-mon-live is-${streamState}`} title={timeZone ? t('timeZone', { tz: timeZone }) : undefined}>
            <i />
            {streamState === 'connected' ? t('live.connected') : streamState === 'connecting' ? t('live.connecting') : t('live.disconnected', { seconds: refreshS })}
          </span>
          <Button icon={<ReloadOutlined />} onClick={refetch} loading={page.isFetching} aria-label={t('refresh')} />
        </div>
        <div className="cw-mon-toolbar cw-mon-summary">
          <span>
            {t('summary.carriers')}
            <b>{summary ? num(summary.carriers) : '…'}</b>
          </span>
          <span>
            {t('summary.sensors')}
            <b>{summary ? num(summary.sensors) : '…'}</b>
          </span>
          <span>
            {t('summary.online')}
            <b style={{ color: '#389e0d' }}>{summary ? num(summary.online) : '…'}</b>
          </span>
          <span>
            {t('summary.offline')}
            <b style={{ color: '#8c8c8c' }}>{summary ? num(summary.offline) : '…'}</b>
          </span>
          <span>
            {t('summary.alarm')}
            <b style={{ color: RANGE_COLORS.high }}>{summary ? num(summary.alarm) : '…'}</b>
          </span>
          <span className="cw-mon-legend" style={{ marginInlineStart: 'auto' }}>
            <span style={swatch(RANGE_COLORS.high)}>{t('range.high')}</span>
            <span style={swatch(RANGE_COLORS.ok)}>{t('range.ok')}</span>
            <span style={swatch(RANGE_COLORS.low)}>{t('range.low')}</span>
            <span style={swatch('#bfbfbf')}>{t('filter.offline')}</span>
          </span>
          {timeZone && <span>{t('timeZone', { tz: timeZone })}</span>}
        </div>
        {page.isError && carriers.length === 0 ? (
          <Alert type="error" showIcon title={t('loadFailed')} action={<Button size="small" onClick={refetch}>{t('retry')}</Button>} />
        ) : page.isPending && carriers.length === 0 ? (
          <div style={{ textAlign: 'center', padding: 48 }}>
            <Spin />
          </div>
        ) : carriers.length === 0 ? (
          <Empty description={t('empty')} style={{ background: '#fff', padding: 48, borderRadius: 8, margin: 0 }} />
        ) : (
          <VirtualGrid
            className="cw-mon-grid"
            items={carriers}
            itemKey={(c) => c.id}
            renderItem={(c) => <CarrierCard carrier={c} timeZone={timeZone} onSensor={openHistory} />}
            minColumnWidth={260}
            gap={12}
            estimateRowHeight={165}
          />
        )}
        {painted && total !== undefined && total > 0 && (
          <Pagination
            className="cw-mon-pager"
            size="small"
            simple={phone}
            current={paging.current}
            pageSize={paging.size}
            total={total}
            pageSizeOptions={PAGE_SIZES}
            showSizeChanger={!phone}
            showTotal={(n, [from, to]) => t('pageTotal', { from, to, total: n })}
            onChange={(current, size) => setPaging({ current: size === paging.size ? current : 1, size })}
          />
        )}
      </section>
    </div>
  );
}
