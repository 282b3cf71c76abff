/**
 * /databoard/monitorMap: the carriers at their scene's coordinates (the nearest ancestor's when
 * the scene has none), coloured by state; filtered by the organisation tree and the board's
 * state filter. Clustered on the server per viewport (useMapClusters), read again as the map
 * moves and periodically. Carriers whose scenes have no coordinates are listed beside the map,
 * with the way to set them.
 */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Alert, Button, Empty, Segmented, Space, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { BOARD_STATES, BOARD_STATE_COLORS, MONITOR_FILTERS, paramRefs, type MapPoint, type MonitorFilter } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { OrgTree, PageCard, TreePage, type SceneNode } from '../../ui';
import { fmtValue, formatInZone, RANGE_COLORS } from '../../lib/format';
import { selectionOf, type SceneSelection } from './SceneFilterTree';
import { useMapClusters } from './useMapClusters';
import type { MapView } from './mapLogic';
import { MonitorMap } from './MonitorMap';
import './monitor.css';
import './map.css';

export default function MonitorMapPage() {
  const { t } = useTranslation('monitor');
  const navigate = useNavigate();
  const { user } = useAuth();
  const tz = user?.timeZone ?? null;
  const [scene, setScene] = useState<SceneSelection>({});
  const [state, setState] = useState<MonitorFilter>('all');
  const [view, setView] = useState<MapView>();
  const params = useCall(paramRefs.list);
  const map = useMapClusters({ sceneId: scene.sceneId, customerId: scene.customerId, state }, view);
  const answer = map.data;

  const popup = (c: MapPoint) => {
    const cl = c.climate;
    const st = c.state;
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
          <Segmented<MonitorFilter> value={state} onChange={setState} options={MONITOR_FILTERS.map((k) => ({ value: k, label: t(`filter.${k}`) }))} />
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
        {map.isError && !answer ? (
          <Alert type="error" showIcon title={t('loadFailed')} action={<Button size="small" onClick={() => void map.refetch()}>{t('retry')}</Button>} />
        ) : !answer || params.isPending ? (
          <div style={{ textAlign: 'center', padding: 48 }}>
            <Spin />
          </div>
        ) : (
          <div className="cw-map-layout">
            <MonitorMap answer={answer} tileUrl={tileUrl} onView={setView} spot={map.spot} renderPopup={popup} labels={{ tilesFailed: t('map.tilesFailed'), carriers: (n) => t('map.carriers', { count: n }) }} />
            {answer.unplaced > 0 && (
              <aside className="cw-map-unplaced" aria-label={t('map.unplaced', { count: answer.unplaced })}>
                <Typography.Text strong>{t('map.unplaced', { count: answer.unplaced })}</Typography.Text>
                <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 8px' }}>
                  {t('map.unplacedHint')}{' '}
                  <Typography.Link onClick={() => navigate('/arch/architecture')}>{t('map.setCoordinates')}</Typography.Link>
                </Typography.Paragraph>
                {answer.unplacedFirst.map((c) => (
                  <div key={c.id} className="cw-map-unplaced-row">
                    <i style={{ background: BOARD_STATE_COLORS[c.state] }} />
                    <Typography.Link ellipsis onClick={() => navigate(`/carrierDetailPage?id=${c.id}`)}>
                      {c.name}
                    </Typography.Link>
                    <small>{c.sceneLabel}</small>
                  </div>
                ))}
                {answer.unplaced > answer.unplacedFirst.length && <Typography.Text type="secondary">{t('map.more', { count: answer.unplaced - answer.unplacedFirst.length })}</Typography.Text>}
              </aside>
            )}
            {answer.placed === 0 && answer.unplaced === 0 && <Empty description={t('empty')} />}
          </div>
        )}
      </PageCard>
    </TreePage>
  );
}
