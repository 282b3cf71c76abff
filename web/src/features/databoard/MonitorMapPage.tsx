/**
 * /databoard/monitorMap: the carriers at their scene's coordinates (the nearest ancestor's when
 * the scene has none), coloured by state and live; filtered by the organisation tree and state.
 * Carriers whose scenes have no coordinates are listed beside the map, with the way to set them.
 */
import { useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Empty, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BOARD_STATES, BOARD_STATE_COLORS, climateOf, paramApi, type BoardState } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { OrgTree, PageCard, TreePage, useSceneTree, withRoot, type SceneNode } from '../../ui';
import { fmtValue, formatInZone, RANGE_COLORS } from '../../lib/format';
import { selectionOf, type SceneSelection } from './SceneFilterTree';
import { carrierState } from './monitorState';
import { useMonitorCarriers } from './useMonitorCarriers';
import { placesOf } from './mapLogic';
import { MonitorMap, type MapCarrier } from './MonitorMap';
import './monitor.css';
import './map.css';

type StateFilter = 'all' | BoardState;

export default function MonitorMapPage() {
  const { t } = useTranslation('monitor');
  const navigate = useNavigate();
  const { user } = useAuth();
  const tz = user?.timeZone ?? null;
  const [scene, setScene] = useState<SceneSelection>({});
  const [state, setState] = useState<StateFilter>('all');
  const tree = useSceneTree();
  const params = useCall(paramApi.list);
  const { carriers, list } = useMonitorCarriers({ sceneId: scene.sceneId, customerId: scene.customerId });
  const places = useMemo(() => placesOf(withRoot(tree.data, '')), [tree.data]);

  const { onMap, unplaced } = useMemo(() => {
    const onMap: MapCarrier[] = [];
    const unplaced: typeof carriers = [];
    for (const c of carriers) {
      const st = carrierState(c);
      if (state !== 'all' && st !== state) continue;
      const p = places.get(c.sceneId);
      if (p) onMap.push({ id: c.id, name: c.name, state: st, climate: climateOf(c), lng: p.lng, lat: p.lat });
      else unplaced.push(c);
    }
    return { onMap, unplaced };
  }, [carriers, places, state]);
  const byId = useMemo(() => new Map(carriers.map((c) => [c.id, c])), [carriers]);

  const popup = (id: number) => {
    const c = byId.get(id);
    if (!c) return null;
    const cl = climateOf(c);
    const st = carrierState(c);
    return (
      <div className="cw-map-popup" data-carrier={c.id}>
        <Space size={6} align="center">
          <Typography.Link strong onClick={() => navigate(`/carrierDetailPage?id=${c.id}`)}>
            {c.name}
          </Typography.Link>
          <Tag color={BOARD_STATE_COLORS[st]}>{t(`points.state.${st}`)}</Tag>
        </Space>
        <div className="cw-map-popup-scene">{c.sceneLabel}</div>
        <div className="cw-map-popup-values">
          <b style={{ color: RANGE_COLORS[cl.tempState] }}>{fmtValue(cl.temp)} °C</b>
          {cl.hum !== null && <b style={{ color: RANGE_COLORS[cl.humState] }}>{fmtValue(cl.hum)} %RH</b>}
        </div>
        <div className="cw-map-popup-scene">{cl.ts ? formatInZone(cl.ts, tz, 'MM-DD HH:mm:ss') : t('noReading')}</div>
      </div>
    );
  };

  const tileUrl = params.data?.map_tile_url ?? '';
  return (
    <TreePage tree={<OrgTree selectedKey={scene.code} onSelect={(n: SceneNode) => setScene(selectionOf(n))} />}>
      <PageCard title={t('map.title')}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 12 }}>
          <Segmented<StateFilter> value={state} onChange={setState} options={(['all', ...BOARD_STATES] as const).map((k) => ({ value: k, label: k === 'all' ? t('filter.all') : t(`points.state.${k}`) }))} />
          <span style={{ flex: 1 }} />
          <span className="cw-mon-legend">
            {BOARD_STATES.map((s) => (
              <span key={s} style={{ ['--c' as string]: BOARD_STATE_COLORS[s] }}>
                {t(`points.state.${s}`)}
              </span>
            ))}
          </span>
        </div>
        {!tileUrl && params.data && <Alert type="info" showIcon className="cw-map-hint" title={t('map.noTiles')} style={{ marginBottom: 8 }} />}
        {list.isPending || tree.isPending || params.isPending ? (
          <div style={{ textAlign: 'center', padding: 48 }}>
            <Spin />
          </div>
        ) : list.isError ? (
          <Alert type="error" showIcon title={t('loadFailed')} action={<Button size="small" onClick={() => void list.refetch()}>{t('retry')}</Button>} />
        ) : (
          <div className="cw-map-layout">
            <MonitorMap carriers={onMap} tileUrl={tileUrl} renderPopup={popup} labels={{ tilesFailed: t('map.tilesFailed'), carriers: (n) => t('map.carriers', { count: n }) }} />
            {unplaced.length > 0 && (
              <aside className="cw-map-unplaced" aria-label={t('map.unplaced', { count: unplaced.length })}>
                <Typography.Text strong>{t('map.unplaced', { count: unplaced.length })}</Typography.Text>
                <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 8px' }}>
                  {t('map.unplacedHint')}{' '}
                  <Typography.Link onClick={() => navigate('/arch/architecture')}>{t('map.setCoordinates')}</Typography.Link>
                </Typography.Paragraph>
                {unplaced.slice(0, 50).map((c) => {
                  const st = carrierState(c);
                  return (
                    <div key={c.id} className="cw-map-unplaced-row">
                      <i style={{ background: BOARD_STATE_COLORS[st] }} />
                      <Typography.Link ellipsis onClick={() => navigate(`/carrierDetailPage?id=${c.id}`)}>
                        {c.name}
                      </Typography.Link>
                      <small>{c.sceneLabel}</small>
                    </div>
                  );
                })}
                {unplaced.length > 50 && <Typography.Text type="secondary">{t('map.more', { count: unplaced.length - 50 })}</Typography.Text>}
              </aside>
            )}
            {onMap.length === 0 && unplaced.length === 0 && <Empty description={t('empty')} />}
          </div>
        )}
      </PageCard>
    </TreePage>
  );
}
