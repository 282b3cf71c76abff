/**
 * Home widget "map monitoring" (spec §2): the carriers on the monitor map (databoard/MonitorMap)
 * at their scene's coordinates, coloured by state, clustered on the server per viewport
 * (useMapClusters) and read again periodically. Its own chunk: Leaflet is loaded only for a home
 * that shows the map.
 */
import { useState } from 'react';
import { Link } from 'react-router';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { paramRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useMapClusters } from '../databoard/useMapClusters';
import type { MapView } from '../databoard/mapLogic';
import { MonitorMap } from '../databoard/MonitorMap';
import { WidgetCard } from './WidgetCard';
import '../databoard/map.css';

export default function MapWidget() {
  const { t } = useTranslation('home');
  const { t: tm } = useTranslation('monitor');
  const params = useCall(paramRefs.list);
  const [view, setView] = useState<MapView>();
  const q = useMapClusters({}, view);
  return (
    <WidgetCard
      title={t('widget.mapMonitor')}
      extra={<Link to="/databoard/monitorMap">{t('viewAll')}</Link>}
      loading={(q.isPending && !q.data) || params.isPending}
      error={q.data ? null : q.error}
      onRetry={() => void q.refetch()}
      testId="widget-map"
    >
      <div className="cw-home-map">
        <MonitorMap
          answer={q.data}
          tileUrl={params.data?.map_tile_url ?? ''}
          onView={setView}
          spot={q.spot}
          renderPopup={(p) => <Link to={`/carrierDetailPage?id=${p.id}`}>{p.name}</Link>}
          labels={{ tilesFailed: tm('map.tilesFailed'), carriers: (n) => tm('map.carriers', { count: n }) }}
        />
      </div>
      {!!q.data?.unplaced && (
        <Typography.Text type="secondary" className="cw-widget-more">
          {t('map.unplaced', { count: q.data.unplaced })}
        </Typography.Text>
      )}
    </WidgetCard>
  );
}
