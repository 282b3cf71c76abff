/**
 * /databoard/deviceMonitor: the live board. Carriers of the chosen organisation node as cards,
 * each sensor's latest temperature/humidity coloured against the carrier's zone; kept current by
 * the live stream, with a periodic refresh as the fallback.
 */
import { useCallback, useMemo, useState, type CSSProperties } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Drawer, Empty, Grid, Input, Segmented, Select, Spin } from 'antd';
import { ApartmentOutlined, ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { CARRIER_TYPES } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { CarrierCard } from './CarrierCard';
import { SceneFilterTree, type SceneSelection } from './SceneFilterTree';
import { useMonitorCarriers } from './useMonitorCarriers';
import { useAlarmSound } from './useAlarmSound';
import { VirtualGrid } from '../../ui';
import { carrierState, isOffline, type MonitorSensor } from './monitorState';
import { rangeState, RANGE_COLORS } from '../../lib/format';
import './monitor.css';

/** A legend swatch's colour, as the CSS variable monitor.css paints it with. */
const swatch = (color: string) => ({ '--c': color }) as CSSProperties;

type StateFilter = 'all' | 'abnormal' | 'offline' | 'normal';


export default function DeviceMonitorPage() {
  const { t } = useTranslation('monitor');
  const navigate = useNavigate();
  const { user } = useAuth();
  const timeZone = user?.timeZone ?? null;

  const [selection, setSelection] = useState<SceneSelection>({});
  const [type, setType] = useState<number | undefined>();
  const [stateFilter, setStateFilter] = useState<StateFilter>('all');
  const [search, setSearch] = useState('');
  // Spec §3 alarm volume and count: the board beeps when an exception opens.
  useAlarmSound();
  const { carriers, list, streamState, complete, refreshS } = useMonitorCarriers({ sceneId: selection.sceneId, customerId: selection.customerId, type }, { firstScreen: true });

  const shown = useMemo(() => {
    const q = search.trim().toLowerCase();
    return carriers.filter((c) => {
      if (type && c.type !== type) return false;
      if (selection.customerId && c.customerId !== selection.customerId) return false;
      if (q && !c.name.toLowerCase().includes(q) && !c.sensors.some((s) => s.devNo.toLowerCase().includes(q))) return false;
      if (stateFilter === 'all') return true;
      const st = carrierState(c);
      if (stateFilter === 'offline') return st === 'offline' || c.sensors.some(isOffline);
      return st === stateFilter;
    });
  }, [carriers, type, selection.customerId, search, stateFilter]);

  const summary = useMemo(() => {
    let sensors = 0;
    let online = 0;
    let alarm = 0;
    for (const c of shown)
      for (const s of c.sensors) {
        sensors += 1;
        if (isOffline(s)) continue;
        online += 1;
        const out = (st: string) => st === 'high' || st === 'low';
        if (out(rangeState(s.temp, c.tempMin, c.tempMax)) || out(rangeState(s.hum, c.humMin, c.humMax))) alarm += 1;
      }
    return { carriers: shown.length, sensors, online, offline: sensors - online, alarm };
  }, [shown]);

  const openHistory = useCallback((s: MonitorSensor) => navigate(`/historyData?deviceNo=${encodeURIComponent(s.devNo)}`), [navigate]);

  // Undefined until measured: a desktop never flashes the drawer.
  const phone = Grid.useBreakpoint().md === false;
  const [treeOpen, setTreeOpen] = useState(false);

  const typeOptions = useMemo(
    () => [{ value: 0, label: t('filter.allTypes') }, ...CARRIER_TYPES.map((c) => ({ value: c.type, label: t(`carrierType.${c.type}`) }))],
    [t],
  );

  const tree = <SceneFilterTree value={selection} onChange={(v) => (setSelection(v), setTreeOpen(false))} />;
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
            onChange={(v) => setType(v || undefined)}
          />
          <Segmented<StateFilter>
            value={stateFilter}
            onChange={setStateFilter}
            options={(['all', 'abnormal', 'offline', 'normal'] as const).map((k) => ({ value: k, label: t(`filter.${k}`) }))}
          />
          <Input.Search allowClear placeholder={t('filter.search')} style={{ width: 220 }} onSearch={setSearch} onChange={(e) => !e.target.value && setSearch('')} />
          <span className="cw-mon-spacer" />
          <span className={`cw-mon-live is-${streamState}`} title={timeZone ? t('timeZone', { tz: timeZone }) : undefined}>
            <i />
            {streamState === 'connected' ? t('live.connected') : streamState === 'connecting' ? t('live.connecting') : t('live.disconnected', { seconds: refreshS })}
          </span>
          <Button icon={<ReloadOutlined />} onClick={() => void list.refetch()} loading={list.isFetching} aria-label={t('refresh')} />
        </div>
        <div className="cw-mon-toolbar cw-mon-summary">
          <span>
            {t('summary.carriers')}
            <b>{complete ? summary.carriers : '…'}</b>
          </span>
          <span>
            {t('summary.sensors')}
            <b>{complete ? summary.sensors : '…'}</b>
          </span>
          <span>
            {t('summary.online')}
            <b style={{ color: '#389e0d' }}>{complete ? summary.online : '…'}</b>
          </span>
          <span>
            {t('summary.offline')}
            <b style={{ color: '#8c8c8c' }}>{complete ? summary.offline : '…'}</b>
          </span>
          <span>
            {t('summary.alarm')}
            <b style={{ color: RANGE_COLORS.high }}>{complete ? summary.alarm : '…'}</b>
          </span>
          <span className="cw-mon-legend" style={{ marginInlineStart: 'auto' }}>
            <span style={swatch(RANGE_COLORS.high)}>{t('range.high')}</span>
            <span style={swatch(RANGE_COLORS.ok)}>{t('range.ok')}</span>
            <span style={swatch(RANGE_COLORS.low)}>{t('range.low')}</span>
            <span style={swatch('#bfbfbf')}>{t('filter.offline')}</span>
          </span>
          {timeZone && <span>{t('timeZone', { tz: timeZone })}</span>}
        </div>
        {list.isError && carriers.length === 0 ? (
          <Alert type="error" showIcon title={t('loadFailed')} action={<Button size="small" onClick={() => void list.refetch()}>{t('retry')}</Button>} />
        ) : list.isPending && carriers.length === 0 ? (
          <div style={{ textAlign: 'center', padding: 48 }}>
            <Spin />
          </div>
        ) : shown.length === 0 ? (
          <Empty description={t('empty')} style={{ background: '#fff', padding: 48, borderRadius: 8, margin: 0 }} />
        ) : (
          <VirtualGrid
            className="cw-mon-grid"
            items={shown}
            itemKey={(c) => c.id}
            renderItem={(c) => <CarrierCard carrier={c} timeZone={timeZone} onSensor={openHistory} />}
            minColumnWidth={260}
            gap={12}
            estimateRowHeight={165}
          />
        )}
      </section>
    </div>
  );
}
