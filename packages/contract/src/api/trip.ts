import { z } from 'zod';
import { historyResult } from './history.js';
import { statisticResult } from './statistic.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';
import * as r from '../rules.js';

/**
 * Transport mode (spec §1, §2 /transHistory and /traceDetail, §3; docs/transport.md): a carrier
 * in transport mode makes trips, each started and ended by a user, with an origin, a destination
 * and a cargo note. The positions its gateway's heartbeat (`gps`) or its 4G GPS sensor reports
 * are kept per trip; a trip's detail is its route, its readings, its figures (min, max, MKT of
 * the statistics) and its excursions.
 */

/** 0 under way, 1 ended. */
export const TRIP_STATUS = { underWay: 0, ended: 1 } as const;
/** Points of a trip's route and of each sensor's chart on the detail (downsampled beyond). */
export const TRIP_MAX_POINTS = 2000;
/** A transport code (the trip's signed link to /traceDetail) works this long from its making. */
export const TRIP_CODE_TTL_MS = 30 * 86_400_000;

const text = (max: number, error: string) => z.string().trim().max(max, { error }).default('');

export const tripStartBody = z.object({
  carrierId: id,
  origin: text(100, 'errors.trip.origin'),
  destination: text(100, 'errors.trip.destination'),
  cargo: text(200, 'errors.trip.cargo'),
  /** When it started (UTC ms, not in the future); now when left out. */
  startTime: ms.min(0).optional(),
});
export type TripStartBody = z.infer<typeof tripStartBody>;

export const tripEndBody = z.object({
  id,
  /** When it ended (UTC ms); now when left out. Never before its start. */
  endTime: ms.min(0).optional(),
});
export type TripEndBody = z.infer<typeof tripEndBody>;

export const tripRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  carrierId: z.number().int(),
  carrierName: z.string(),
  origin: z.string(),
  destination: z.string(),
  cargo: z.string(),
  startTime: ms,
  endTime: ms.nullable(),
  /** 0 under way, 1 ended. */
  status: z.number().int(),
  /** Empty for a trip started by leaving a place (auto). */
  startedBy: z.string(),
  /** Null under way; empty for a trip ended by reaching a place. */
  endedBy: z.string().nullable(),
  /** Started by leaving a place rather than by a user. */
  auto: z.boolean(),
  positions: z.number().int(),
});
export type TripRow = z.infer<typeof tripRow>;

export const tripPosition = z.object({ ts: ms, lat: z.number(), lng: z.number() });
export type TripPosition = z.infer<typeof tripPosition>;

/** An exception of the trip's carrier or its sensors during the trip, with its handling (reason and measures). */
export const tripExcursion = z.object({
  category: z.string(),
  start: ms,
  end: ms.nullable(),
  peakValue: z.number().nullable(),
  /** 0 pending, 1 processed, 2 closed (EXCEPTION_STATUS). */
  status: z.number().int(),
  reason: z.string(),
  measures: z.string(),
});

/** A trip's record: its route, its sensors' readings, its figures and its excursions. */
export const tripDetail = z.object({
  trip: tripRow.omit({ customerId: true, carrierId: true }),
  route: z.array(tripPosition),
  readings: z.array(historyResult.omit({ carrierId: true })),
  statistic: statisticResult.pick({ zone: true, summary: true, mktDh: true }).nullable(),
  excursions: z.array(tripExcursion),
});
export type TripDetail = z.infer<typeof tripDetail>;

/**
 * What the transport code's page (/traceDetail, no sign-in) shows: the trip's record without any
 * identifier another call could take (no ids, no user names), the customer's name and clock, and
 * when the code expires.
 */
export const traceDetail = tripDetail.extend({
  trip: tripRow.omit({ id: true, customerId: true, carrierId: true, startedBy: true, endedBy: true, auto: true }),
  customerName: z.string(),
  timeZone: z.string(),
  expiresAt: ms,
  /** The console's map tile URL (parameter map_tile_url); empty: the plain graticule. */
  tileUrl: z.string(),
});
export type TraceDetail = z.infer<typeof traceDetail>;

const tag = 'trip';
export const tripApi = {
  page: route({
    method: 'GET',
    path: '/service/trip/page',
    tag,
    summary: 'Trips of carriers in transport mode, newest first',
    query: pageQuery({ carrierId: id.optional(), status: z.coerce.number().int().min(0).max(1).optional(), customerId: id.optional() }),
    result: pageOf(tripRow),
  }),
  start: route({ method: 'POST', path: '/service/trip/start', tag, summary: 'Start a trip of a carrier in transport mode', body: tripStartBody, result: z.object({ id: z.number().int() }) }),
  end: route({ method: 'PUT', path: '/service/trip/end', tag, summary: 'End a trip under way', body: tripEndBody, result: z.object({ id: z.number().int() }) }),
  detail: route({ method: 'GET', path: '/service/trip/detail', tag, summary: "A trip's route, readings, min/max/MKT and excursions", query: idQuery, result: tripDetail }),
  code: route({
    method: 'POST',
    path: '/service/trip/code',
    tag,
    summary: "Make a trip's transport code: a signed link to /traceDetail, valid 30 days",
    body: z.object({ id }),
    result: z.object({ code: z.string(), url: z.string(), expiresAt: ms }),
  }),
  trace: route({
    method: 'GET',
    path: '/service/trace/detail',
    tag,
    summary: "No sign-in: a trip's record (cargo, route, readings, min/max/MKT, excursions) by its transport code",
    query: z.object({ code: z.string().min(1).max(200) }),
    result: traceDetail,
  }),
};

/**
 * Places (docs/transport.md "Places"): a customer's named circles (a depot, a clinic). A carrier
 * in transport mode without a trip under way that leaves a place starts a trip from it; a trip
 * under way that reaches a place, having left it since its start, ends there.
 */
export const PLACE_RADIUS_M = { min: 50, max: 50_000, default: 300 } as const;

export const placeBody = z.object({
  name: r.name(50),
  lat: r.latitude,
  lng: r.longitude,
  radiusM: z
    .number({ error: 'errors.place.radius' })
    .int({ error: 'errors.place.radius' })
    .min(PLACE_RADIUS_M.min, { error: 'errors.place.radius' })
    .max(PLACE_RADIUS_M.max, { error: 'errors.place.radius' })
    .default(PLACE_RADIUS_M.default),
});
export const placeAddBody = placeBody.safeExtend({ customerId: id.optional() });
export const placeUpdateBody = placeBody.safeExtend({ id });
export type PlaceAddBody = z.infer<typeof placeAddBody>;
export type PlaceUpdateBody = z.infer<typeof placeUpdateBody>;

export const placeRow = z.object({
  id: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  name: z.string(),
  lat: z.number(),
  lng: z.number(),
  radiusM: z.number().int(),
});
export type PlaceRow = z.infer<typeof placeRow>;

const placeTag = 'place';
export const placeApi = {
  page: route({
    method: 'GET',
    path: '/service/place/page',
    tag: placeTag,
    summary: "Places whose leaving starts a trip and whose reaching ends one",
    query: pageQuery({ name: z.string().trim().max(50).optional(), customerId: id.optional() }),
    result: pageOf(placeRow),
  }),
  add: route({ method: 'POST', path: '/service/place/add', tag: placeTag, summary: 'Create a place', body: placeAddBody, result: idResult }),
  update: route({ method: 'PUT', path: '/service/place/update', tag: placeTag, summary: 'Change a place', body: placeUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/place/del', tag: placeTag, summary: 'Delete places (trips keep their origin and destination names)', query: idsQuery, result: deletedResult }),
};
