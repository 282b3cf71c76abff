import { z } from 'zod';
import { BOARD_STATES } from '../board.js';
import { dmApi } from './dm.js';
import { route } from './route.js';

/*
 * The monitor map at scale (docs/scaling.md "The board at 100,000 points"): the browser sends
 * its viewport and the board's filters, the server answers per grid cell of the viewport (a
 * count, its states, where to draw it) and each carrier alone in its cell with what its marker
 * and popup show. An API of its own beside dmApi (same tag and path prefix), taking the board's
 * filters from it.
 */

const lng = z.coerce.number().min(-180, { error: 'errors.rule.longitude' }).max(180, { error: 'errors.rule.longitude' });
const lat = z.coerce.number().min(-90, { error: 'errors.rule.latitude' }).max(90, { error: 'errors.rule.latitude' });

/** A box on the map in degrees (WGS-84). */
export const mapBox = z.object({ west: z.number(), south: z.number(), east: z.number(), north: z.number() });
export type MapBox = z.infer<typeof mapBox>;

/** The viewport: all five or none (none: only the extent, the counts and the unplaced carriers). */
export const mapViewport = {
  west: lng.optional(),
  south: lat.optional(),
  east: lng.optional(),
  north: lat.optional(),
  /** Leaflet's zoom (fractional: the map snaps to quarters). */
  zoom: z.coerce.number().min(0).max(22).optional(),
};

type Viewport = { [K in keyof typeof mapViewport]?: number };

/**
 * The viewport is whole (all five or none: the missing ones are required) and not inverted (west
 * and south are the box's minimums: not above east and north), else the §8 parameter error.
 */
export function viewportRule(v: Viewport, ctx: z.RefinementCtx) {
  const keys = Object.keys(mapViewport) as (keyof Viewport)[];
  const missing = keys.filter((k) => v[k] === undefined);
  if (missing.length === keys.length) return;
  for (const k of missing) ctx.addIssue({ code: 'custom', message: 'errors.rule.required', path: [k] });
  if (v.west !== undefined && v.east !== undefined && v.west >= v.east) ctx.addIssue({ code: 'custom', message: 'errors.rule.minAboveMax', path: ['west'] });
  if (v.south !== undefined && v.north !== undefined && v.south >= v.north) ctx.addIssue({ code: 'custom', message: 'errors.rule.minAboveMax', path: ['south'] });
}

const stateCounts = z.object(Object.fromEntries(BOARD_STATES.map((s) => [s, z.number().int()])) as Record<(typeof BOARD_STATES)[number], z.ZodNumber>);
const boardState = z.enum(BOARD_STATES);
const rangeState = z.enum(['high', 'low', 'ok', 'none']);

/** Several carriers of one cell: drawn at their mean position, coloured by their worst state. */
export const mapCluster = z.object({
  lng: z.number(),
  lat: z.number(),
  count: z.number().int(),
  states: stateCounts,
  /** The box of its carriers: a click zooms to it, or lists them when it is one spot. */
  box: mapBox,
});
export type MapCluster = z.infer<typeof mapCluster>;

/** A carrier drawn as itself, with what its marker and popup show. */
export const mapPoint = z.object({
  id: z.number().int(),
  name: z.string(),
  sceneLabel: z.string(),
  state: boardState,
  lng: z.number(),
  lat: z.number(),
  climate: z.object({ temp: z.number().nullable(), hum: z.number().nullable(), tempState: rangeState, humState: rangeState, ts: z.number().nullable() }),
});
export type MapPoint = z.infer<typeof mapPoint>;

export const mapClusters = z.object({
  /** Carriers of every filter with a position (their scene's or the nearest ancestor's), and those without. */
  placed: z.number().int(),
  unplaced: z.number().int(),
  /** The first carriers without a position (board order), listed beside the map. */
  unplacedFirst: z.array(mapPoint.pick({ id: true, name: true, sceneLabel: true, state: true })),
  /** The box of every placed carrier of the filters but the state (where the map opens); null when none is placed. */
  extent: mapBox.nullable(),
  /** Of the viewport (empty without one): the cells holding several carriers, and the carriers alone in theirs. */
  clusters: z.array(mapCluster),
  points: z.array(mapPoint),
});
export type MapClusters = z.infer<typeof mapClusters>;

export const dmMapApi = {
  mapClusters: route({
    method: 'GET',
    path: '/service/dm/mapClusters',
    tag: 'dm',
    summary:
      "The monitor map over the board's filters: per grid cell of the viewport its carriers' count, states and position, each carrier alone in its cell with its state and values; the extent of every placed carrier and those without a position",
    query: dmApi.monitorCounts.query.extend(mapViewport).superRefine(viewportRule),
    result: mapClusters,
  }),
};
