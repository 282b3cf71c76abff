/**
 * The Leaflet part of /databoard/monitorMap and home's map: tiles from the configured URL (or a
 * plain graticule when none is set or reachable), the server's clusters of the viewport
 * (useMapClusters) and its single carriers as markers coloured by state; a cluster zooms in on
 * click (or lists its carriers when they share one spot), a marker opens its carrier's card.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import { MapContainer, Marker, Popup, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { Spin } from 'antd';
import { BOARD_STATES, BOARD_STATE_COLORS, type BoardState, type MapBox, type MapClusters, type MapPoint } from '@coldwatch/contract';
import { cluster, escapeHtml, isSpot, stateCounts, viewOf, worstState, zoomLimits, type MapView } from './mapLogic';
import { wgs84ToGcj02 } from './gcj02';
import { fmtValue } from '../../lib/format';

interface Props {
  /** The server's answer for the filters (its extent places the map; its cells and points are drawn); undefined while the first one comes. */
  answer: MapClusters | undefined;
  tileUrl: string;
  /** The viewport moved (debounced): the page asks for its cells. */
  onView: (view: MapView) => void;
  /** The carriers at one spot, for a cluster that zooming cannot split. */
  spot: (box: MapBox) => Promise<{ points: MapPoint[]; count: number }>;
  /** Popup content of one carrier. */
  renderPopup: (p: MapPoint) => React.ReactNode;
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

function markerIcon(c: MapPoint) {
  const color = BOARD_STATE_COLORS[c.state];
  const value = c.climate.temp !== null ? `${fmtValue(c.climate.temp)}°C` : c.climate.hum !== null ? `${fmtValue(c.climate.hum)}%` : '--';
  const html = `<span class="cw-map-pin" style="--c:${color}" data-state="${c.state}"></span><span class="cw-map-label"><b>${escapeHtml(c.name)}</b> ${escapeHtml(value)}</span>`;
  return iconOf(html, () => L.divIcon({ className: 'cw-map-marker', html, iconSize: [14, 14], iconAnchor: [7, 7] }));
}

/** A cluster: its count on a ring that shows the share of each state, in the colour of the most urgent one. */
function clusterIcon(counts: Record<BoardState, number>) {
  const n = BOARD_STATES.reduce((sum, s) => sum + counts[s], 0);
  const size = n < 10 ? 34 : n < 100 ? 40 : n < 1000 ? 48 : 56;
  let at = 0;
  const stops = BOARD_STATES.map((s) => {
    const from = at;
    at += (counts[s] / n) * 360;
    return `${BOARD_STATE_COLORS[s]} ${from}deg ${at}deg`;
  }).join(',');
  const worst = worstState(counts);
  const html = `<span style="--c:${BOARD_STATE_COLORS[worst]};background:conic-gradient(${stops});width:${size}px;height:${size}px" data-state="${worst}"><b>${n.toLocaleString()}</b></span>`;
  return iconOf(html, () => L.divIcon({ className: 'cw-map-cluster', html, iconSize: [size, size], iconAnchor: [size / 2, size / 2] }));
}

/** Positions are WGS-84; tiles of a Chinese provider are GCJ-02 (spec §9): converted inside China only, and only when tiles are drawn. */
const shown = (tiles: boolean, lng: number, lat: number): [number, number] => {
  if (!tiles) return [lat, lng];
  const [x, y] = wgs84ToGcj02(lng, lat);
  return [y, x];
};

type Open = { at: L.LatLng; points: MapPoint[] | null; count: number };

/**
 * The server's clusters as they come, and its single carriers grouped here when they fall in one
 * cell of the screen (carriers of one scene share its position).
 */
function Markers({ answer, tiles, spot, renderPopup, labels }: Pick<Props, 'spot' | 'renderPopup' | 'labels'> & { answer: MapClusters; tiles: boolean }) {
  const map = useMap();
  const [zoom, setZoom] = useState(map.getZoom());
  useMapEvents({ zoomend: () => setZoom(map.getZoom()) });
  const groups = useMemo(() => {
    const pts = answer.points.map((c) => {
      const p = map.project(shown(tiles, c.lng, c.lat), zoom);
      return { item: c, x: p.x, y: p.y };
    });
    return cluster(pts, CELL_PX).map((g) => ({ ...g, latlng: map.unproject([g.x, g.y], zoom) }));
  }, [answer.points, map, zoom, tiles]);

  // One popup for the map, opened by a click: a carrier, or the carriers of one spot (fetched when the server sent them as a cluster).
  const [open, setOpen] = useState<Open | null>(null);
  const asked = useRef(0);
  const openSpot = (box: MapBox, at: L.LatLng, count: number) => {
    const n = ++asked.current;
    setOpen({ at, points: null, count });
    void spot(box).then((r) => n === asked.current && setOpen({ at, points: r.points, count: r.count }));
  };
  const zoomTo = (box: MapBox, at: L.LatLng, count: number) => {
    if (isSpot(box) || map.getZoom() >= map.getMaxZoom()) openSpot(box, at, count);
    else map.fitBounds(L.latLngBounds([shown(tiles, box.west, box.south), shown(tiles, box.east, box.north)]).pad(0.3), { maxZoom: map.getMaxZoom() });
  };

  return (
    <>
      {answer.clusters.map((c) => (
        <Marker
          key={`s${c.lng}:${c.lat}:${c.count}`}
          position={shown(tiles, c.lng, c.lat)}
          icon={clusterIcon(c.states)}
          title={labels.carriers(c.count)}
          eventHandlers={{ click: () => zoomTo(c.box, L.latLng(shown(tiles, c.lng, c.lat)), c.count) }}
        />
      ))}
      {groups.map((g) =>
        g.items.length === 1 ? (
          <Marker
            key={`c${g.items[0].id}`}
            position={shown(tiles, g.items[0].lng, g.items[0].lat)}
            icon={markerIcon(g.items[0])}
            title={g.items[0].name}
            eventHandlers={{ click: () => setOpen({ at: L.latLng(shown(tiles, g.items[0].lng, g.items[0].lat)), points: [g.items[0]], count: 1 }) }}
          />
        ) : (
          <Marker
            key={`g${g.items.map((c) => c.id).join('-')}`}
            position={g.latlng}
            icon={clusterIcon(stateCounts(g.items.map((c) => c.state)))}
            title={labels.carriers(g.items.length)}
            eventHandlers={{
              click: () => {
                // Carriers at one spot cannot be separated by zooming: list them instead.
                const lng = g.items.map((c) => c.lng);
                const lat = g.items.map((c) => c.lat);
                const box = { west: Math.min(...lng), south: Math.min(...lat), east: Math.max(...lng), north: Math.max(...lat) };
                if (isSpot(box) || map.getZoom() >= map.getMaxZoom()) setOpen({ at: g.latlng, points: g.items, count: g.items.length });
                else zoomTo(box, g.latlng, g.items.length);
              },
            }}
          />
        ),
      )}
      {open && (
        <Popup position={open.at} eventHandlers={{ remove: () => setOpen(null) }}>
          <div className="cw-map-list">
            {open.points === null ? <Spin size="small" /> : open.points.map((p) => <div key={p.id}>{renderPopup(p)}</div>)}
            {open.points !== null && open.count > open.points.length && <small>{labels.carriers(open.count)}</small>}
          </div>
        </Popup>
      )}
    </>
  );
}

/** Tells the page the viewport once the map is placed and after each pan or zoom, a quarter second after the last. */
function ViewReporter({ onView }: { onView: (v: MapView) => void }) {
  const map = useMap();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const report = useRef(() => {});
  report.current = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const b = map.getBounds();
      const v = viewOf({ west: b.getWest(), south: b.getSouth(), east: b.getEast(), north: b.getNorth() }, map.getZoom());
      if (v) onView(v);
    }, 250);
  };
  useMapEvents({ moveend: () => report.current() });
  useEffect(() => {
    map.whenReady(() => report.current());
    return () => clearTimeout(timer.current);
  }, [map]);
  return null;
}

/**
 * `keyboard={false}`: Leaflet's map keyboard handler focuses the map on mousedown, which scrolls
 * the shell's content pane (not the window, which Leaflet restores) and moves the marker away
 * from under the pointer before mouseup: clicks on markers were lost. Markers stay reachable by
 * Tab and Enter (their own keyboard option).
 */
export function MonitorMap({ answer, tileUrl, onView, spot, renderPopup, labels }: Props) {
  const tiles = !!tileUrl;
  const [tilesFailed, setTilesFailed] = useState(false);
  // The opening view fits every placed carrier of the filters; its zoom is the base of the one-third..three-times limits.
  const extent = answer?.extent ?? null;
  const view = useMemo(() => {
    if (!extent) return { center: [35, 105] as [number, number], zoom: 4 };
    const b = L.latLngBounds([shown(tiles, extent.west, extent.south), shown(tiles, extent.east, extent.north)]);
    if (isSpot(extent)) return { center: [b.getCenter().lat, b.getCenter().lng] as [number, number], zoom: SINGLE_ZOOM };
    return { bounds: b.pad(0.2) };
  }, [extent, tiles]);
  const key = JSON.stringify(extent) + tileUrl;

  return (
    <div className="cw-map-wrap">
      <MapContainer key={key} {...('bounds' in view ? { bounds: view.bounds } : { center: view.center, zoom: view.zoom })} zoomSnap={0.25} zoomDelta={0.5} keyboard={false} className="cw-map">
        <ZoomLimits />
        {tileUrl ? (
          <TileLayer url={tileUrl} eventHandlers={{ tileerror: () => setTilesFailed(true) }} />
        ) : (
          <GraticuleLayer />
        )}
        {answer && <ViewReporter onView={onView} />}
        {answer && <Markers answer={answer} tiles={tiles} spot={spot} renderPopup={renderPopup} labels={labels} />}
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
