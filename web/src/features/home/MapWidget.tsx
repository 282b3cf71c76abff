/**
 * Home widget "map monitoring" (spec §2): the carriers on the monitor map (databoard/MonitorMap)
 * at their scene's coordinates, coloured by state, live with the monitor list. Its own chunk:
 * Leaflet is loaded only for a home that shows the map.
 */
import { useMemo } from 'react';
import { Link } from 'react-router';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { climateOf, paramRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useSceneTree, withRoot } from '../../ui';
import { carrierState } from '../databoard/monitorState';
import { useMonitorCarriers } from '../databoard/useMonitorCarriers';
import { placesOf } from '../databoard/mapLogic';
import { MonitorMap, type MapCarrier } from '../databoard/MonitorMap';
import { WidgetCard } from './WidgetCard';
import '../databoard/map.css';

export default function MapWidget() {
  const { t } = useTranslation('home');
  const { t: tm } = useTranslation('monitor');
  const tree = useSceneTree();
  const params = useCall(paramRefs.list);
  const { carriers, list: q } = useMonitorCarriers();
  const places = useMemo(() => placesOf(withRoot(tree.data, '')), [tree.data]);
  const onMap = useMemo(
    () =>
      carriers.flatMap((c): MapCarrier[] => {
        const p = places.get(c.sceneId);
        return p ? [{ id: c.id, name: c.name, state: carrierState(c), climate: climateOf(c), lng: p.lng, lat: p.lat }] : [];
      }),
    [carriers, places],
  );
  const names = useMemo(() => new Map(carriers.map((c) => [c.id, c.name])), [carriers]);
  return (
    <WidgetCard
      title={t('widget.mapMonitor')}
      extra={<Link to="/databoard/monitorMap">{t('viewAll')}</Link>}
      loading={q.isPending || tree.isPending || params.isPending}
      error={q.error ?? tree.error}
      onRetry={() => void q.refetch()}
      testId="widget-map"
    >
      <div className="cw-home-map">
        <MonitorMap
          carriers={onMap}
          tileUrl={params.data?.map_tile_url ?? ''}
          renderPopup={(id) => <Link to={`/carrierDetailPage?id=${id}`}>{names.get(id)}</Link>}
          labels={{ tilesFailed: tm('map.tilesFailed'), carriers: (n) => tm('map.carriers', { count: n }) }}
        />
      </div>
      {carriers.length > onMap.length && (
        <Typography.Text type="secondary" className="cw-widget-more">
          {t('map.unplaced', { count: carriers.length - onMap.length })}
        </Typography.Text>
      )}
    </WidgetCard>
  );
}
