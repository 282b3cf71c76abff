/**
 * The Leaflet part of /databoard/monitorMap: tiles from the configured URL (or a plain
 * graticule when none is set or reachable), carriers as markers coloured by state, clustered
 * per zoom; a cluster zooms in on click, a marker opens its carrier's card.
 */
import { useEffect, useMemo, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { BOARD_STATES, BOARD_STATE_COLORS, type BoardState, type Climate } from '@coldwatch/contract';
import { cluster, escapeHtml, worstState, zoomLimits } from './mapLogic';
import { wgs84ToGcj02 } from './gcj02';
import { fmtValue } from '../../lib/format';

export interface MapCarrier {
  id: number;
  name: string;
  state: BoardState;
  climate: Climate;
  lng: number;
  lat: number;
}

interface Props {
  carriers: MapCarrier[];
  tileUrl: string;
  /** Popup content of one carrier. */
  renderPopup: (id: number) => React.ReactNode;
  labels: { tilesFailed: string; carriers: (n: number) => string };
}

const CELL_PX = 56;
/** Zoom when the markers fit in a point (one site): a city block. */
const SINGLE_ZOOM = 15;

/** Draws a light grid with coordinates on each tile: orientation when there are no map tiles. */
const Graticule = L.GridLayer.extend({
  createTile(coords: L.Coords) {
    const tile = document.createElement('canvas');
    const size = (this as L.GridLayer).getTileSize();
    tile.width = size.x;
    tile.height = size.y;
    const ctx = tile.getContext('2d')!;
    ctx.strokeStyle = 'rgba(22,119,255,.12)';
    ctx.strokeRect(0, 0, size.x, size.y);
    const nw = (this as unknown as { _map: L.Map })._map.unproject([coords.x * size.x, coords.y * size.y], coords.z);
    ctx.fillStyle = 'rgba(0,0,0,.25)';
    ctx.font = '10px sans-serif';
    const digits = coords.z >= 14 ? 4 : coords.z >= 10 ? 3 : 2;
    ctx.fillText(`${nw.lat.toFixed(digits)}, ${nw.lng.toFixed(digits)}`, 4, 12);
    return tile;
  },
});

export function GraticuleLayer() {
  const map = useMap();
  useEffect(() => {
    const layer = new (Graticule as unknown as new (o: L.GridLayerOptions) => L.GridLayer)({ tileSize: 256 });
    layer.addTo(map);
    return () => void layer.remove();
  }, [map]);
  return null;
}

/**
 * Icons are kept by their markup: a live value that did not change what a marker shows keeps
 * its icon object, so Leaflet does not replace the marker's element (which would swallow a
 * click in progress and restart the pulse).
 */
const icons = new Map<string, L.DivIcon>();
function iconOf(html: string, make: () => L.DivIcon): L.DivIcon {
  let icon = icons.get(html);
  if (!icon) {
    if (icons.size > 5000) icons.clear();
    icons.set(html, (icon = make()));
  }
  return icon;
}

function markerIcon(c: MapCarrier) {
  const color = BOARD_STATE_COLORS[c.state];
  const value = c.climate.temp !== null ? `${fmtValue(c.climate.temp)}°C` : c.climate.hum !== null ? `${fmtValue(c.climate.hum)}%` : '--';
  const html = `<span class="cw-map-pin" style="--c:${color}" data-state="${c.state}"></span><span class="cw-map-label"><b>${escapeHtml(c.name)}</b> ${escapeHtml(value)}</span>`;
  return iconOf(html, () => L.divIcon({ className: 'cw-map-marker', html, iconSize: [14, 14], iconAnchor: [7, 7] }));
}

/** A cluster: its count on a ring that shows the share of each state, in the colour of the most urgent one. */
function clusterIcon(states: BoardState[]) {
  const n = states.length;
  const size = n < 10 ? 34 : n < 100 ? 40 : 48;
  let at = 0;
  const stops = BOARD_STATES.map((s) => {
    const from = at;
    at += (states.filter((x) => x === s).length / n) * 360;
    return `${BOARD_STATE_COLORS[s]} ${from}deg ${at}deg`;
  }).join(',');
  const worst = worstState(states);
  const html = `<span style="--c:${BOARD_STATE_COLORS[worst]};background:conic-gradient(${stops});width:${size}px;height:${size}px" data-state="${worst}"><b>${n}</b></span>`;
  return iconOf(html, () => L.divIcon({ className: 'cw-map-cluster', html, iconSize: [size, size], iconAnchor: [size / 2, size / 2] }));
}

/** The markers, regrouped whenever the zoom changes. */
function Clustered({ carriers, renderPopup, labels }: Pick<Props, 'carriers' | 'renderPopup' | 'labels'>) {
  const map = useMap();
  const [zoom, setZoom] = useState(map.getZoom());
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) });
  const groups = useMemo(() => {
    const pts = carriers.map((c) => {
      const p = map.project([c.lat, c.lng], zoom);
      return { item: c, x: p.x, y: p.y };
    });
    return cluster(pts, CELL_PX).map((g) => ({ ...g, latlng: map.unproject([g.x, g.y], zoom) }));
  }, [carriers, map, zoom]);

  // One popup for the map, opened by a marker's click: the carriers it lists stay current while it is open.
  const [open, setOpen] = useState<{ ids: number[]; at: L.LatLng } | null>(null);

  return (
    <>
      {groups.map((g) =>
        g.items.length === 1 ? (
          <Marker
            key={`c${g.items[0].id}`}
            position={[g.items[0].lat, g.items[0].lng]}
            icon={markerIcon(g.items[0])}
            title={g.items[0].name}
            eventHandlers={{ click: () => setOpen({ ids: [g.items[0].id], at: L.latLng(g.items[0].lat, g.items[0].lng) }) }}
          />
        ) : (
          <Marker
            key={`g${g.items.map((c) => c.id).join('-')}`}
            position={g.latlng}
            icon={clusterIcon(g.items.map((c) => c.state))}
            title={labels.carriers(g.items.length)}
            eventHandlers={{
              click: () => {
                // Carriers at one spot cannot be separated by zooming: list them instead.
                const bounds = L.latLngBounds(g.items.map((c) => [c.lat, c.lng] as [number, number]));
                if (bounds.getNorthEast().equals(bounds.getSouthWest()) || map.getZoom() >= map.getMaxZoom()) setOpen({ ids: g.items.map((c) => c.id), at: g.latlng });
                else map.fitBounds(bounds.pad(0.3), { maxZoom: map.getMaxZoom() });
              },
            }}
          />
        ),
      )}
      {open && (
        <Popup position={open.at} eventHandlers={{ remove: () => setOpen(null) }}>
          <div className="cw-map-list">
            {open.ids.map((id) => (
              <div key={id}>{renderPopup(id)}</div>
            ))}
          </div>
        </Popup>
      )}
    </>
  );
}

/**
 * `keyboard={false}`: Leaflet's map keyboard handler focuses the map on mousedown, which scrolls
 * the shell's content pane (not the window, which Leaflet restores) and moves the marker away
 * from under the pointer before mouseup: clicks on markers were lost. Markers stay reachable by
 * Tab and Enter (their own keyboard option).
 */
export function MonitorMap({ carriers, tileUrl, renderPopup, labels }: Props) {
  // Positions are WGS-84; tiles of a Chinese provider are GCJ-02 (spec §9): convert inside China only, and only when tiles are drawn.
  const placed = useMemo(
    () =>
      carriers.map((c) => {
        if (!tileUrl) return c;
        const [lng, lat] = wgs84ToGcj02(c.lng, c.lat);
        return { ...c, lng, lat };
      }),
    [carriers, tileUrl],
  );
  const [tilesFailed, setTilesFailed] = useState(false);
  // The opening view fits every marker; its zoom is the base of the one-third..three-times limits.
  const view = useMemo(() => {
    if (!placed.length) return { center: [35, 105] as [number, number], zoom: 4 };
    const b = L.latLngBounds(placed.map((c) => [c.lat, c.lng] as [number, number]));
    if (b.getNorthEast().equals(b.getSouthWest())) return { center: [b.getCenter().lat, b.getCenter().lng] as [number, number], zoom: SINGLE_ZOOM };
    return { bounds: b.pad(0.2) };
  }, [placed]);
  const key = placed.map((c) => c.id).join(',') + tileUrl;

  return (
    <div className="cw-map-wrap">
      <MapContainer key={key} {...('bounds' in view ? { bounds: view.bounds } : { center: view.center, zoom: view.zoom })} zoomSnap={0.25} zoomDelta={0.5} keyboard={false} className="cw-map">
        <ZoomLimits />
        {tileUrl ? (
          <TileLayer url={tileUrl} eventHandlers={{ tileerror: () => setTilesFailed(true) }} />
        ) : (
          <GraticuleLayer />
        )}
        <Clustered carriers={placed} renderPopup={renderPopup} labels={labels} />
      </MapContainer>
      {tilesFailed && <div className="cw-map-note">{labels.tilesFailed}</div>}
    </div>
  );
}

/** Fixes the zoom limits around the zoom the map opened at (spec §9: one third to three times). */
function ZoomLimits() {
  const map = useMap();
  useEffect(() => {
    const { min, max } = zoomLimits(map.getZoom());
    map.setMinZoom(min);
    map.setMaxZoom(max);
  }, [map]);
  return null;
}
