/**
 * A trip's route on the map (react-leaflet, as /databoard/monitorMap): tiles from the configured
 * URL or the plain graticule offline, the route as lines coloured by temperature against the
 * zone (tripLogic.ts), its start and end marked, and the vehicle where the playback is.
 */
import { useMemo, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { CircleMarker, MapContainer, Polyline, TileLayer, Tooltip } from 'react-leaflet';
import { GraticuleLayer } from '../databoard/MonitorMap';
import { wgs84ToGcj02 } from '../databoard/gcj02';
import { BAND_COLORS, colouredLegs, type Zone } from './tripLogic';

export interface TripMapProps {
  route: { ts: number; lat: number; lng: number }[];
  points: { ts: number; temp?: number | null }[];
  zone: Zone;
  /** Empty: the graticule (no tiles offline). */
  tileUrl?: string;
  /** Where the playback is, or none. */
  cursor?: { lat: number; lng: number } | null;
  /** The positions the view fits (the whole route while playback draws part of it); default `route`. */
  frame?: { lat: number; lng: number }[];
  labels: { start: string; end: string; tilesFailed: string };
  height?: number | string;
}

export function TripMap({ route, points, zone, tileUrl = '', cursor, frame, labels, height = 320 }: TripMapProps) {
  // Positions are WGS-84; a Chinese provider's tiles are GCJ-02 (spec §9): converted only when tiles are drawn.
  const place = useMemo(() => (lat: number, lng: number): [number, number] => {
    if (!tileUrl) return [lat, lng];
    const [x, y] = wgs84ToGcj02(lng, lat);
    return [y, x];
  }, [tileUrl]);
  const placed = useMemo(() => route.map((p) => ({ ...p, ...(([lat, lng]) => ({ lat, lng }))(place(p.lat, p.lng)) })), [route, place]);
  const legs = useMemo(() => colouredLegs(placed, points, zone), [placed, points, zone]);
  const [tilesFailed, setTilesFailed] = useState(false);
  const fitted = useMemo(() => (frame ?? route).map((p) => place(p.lat, p.lng)), [frame, route, place]);
  const view = useMemo(() => {
    if (!fitted.length) return { center: [35, 105] as [number, number], zoom: 4 };
    const b = L.latLngBounds(fitted);
    if (b.getNorthEast().equals(b.getSouthWest())) return { center: [b.getCenter().lat, b.getCenter().lng] as [number, number], zoom: 14 };
    return { bounds: b.pad(0.15) };
  }, [fitted]);
  const first = placed[0];
  const last = placed[placed.length - 1];
  const at = cursor ? place(cursor.lat, cursor.lng) : null;

  return (
    <div style={{ position: 'relative' }} data-testid="trip-map">
      <MapContainer
        // The view is set when the map mounts: a new frame or tile source mounts it again, playback frames do not.
        key={`${fitted.length}${tileUrl}`}
        {...('bounds' in view ? { bounds: view.bounds } : { center: view.center, zoom: view.zoom })}
        zoomSnap={0.25}
        keyboard={false}
        style={{ height, width: '100%', borderRadius: 8, background: '#f7f9fc' }}
      >
        {tileUrl ? <TileLayer url={tileUrl} eventHandlers={{ tileerror: () => setTilesFailed(true) }} /> : <GraticuleLayer />}
        {legs.map((l, i) => (
          <Polyline key={i} positions={l.positions} pathOptions={{ color: BAND_COLORS[l.band], weight: 5, opacity: 0.9 }} />
        ))}
        {first && (
          <CircleMarker center={[first.lat, first.lng]} radius={7} pathOptions={{ color: '#fff', weight: 2, fillColor: '#1677ff', fillOpacity: 1 }}>
            <Tooltip>{labels.start}</Tooltip>
          </CircleMarker>
        )}
        {last && last !== first && !at && (
          <CircleMarker center={[last.lat, last.lng]} radius={7} pathOptions={{ color: '#fff', weight: 2, fillColor: '#0b1b33', fillOpacity: 1 }}>
            <Tooltip>{labels.end}</Tooltip>
          </CircleMarker>
        )}
        {at && <CircleMarker center={at} radius={9} pathOptions={{ color: '#fff', weight: 3, fillColor: '#fa8c16', fillOpacity: 1 }} />}
      </MapContainer>
      {tilesFailed && <div className="cw-map-note">{labels.tilesFailed}</div>}
    </div>
  );
}
