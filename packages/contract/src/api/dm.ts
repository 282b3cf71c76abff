import { z } from 'zod';
import { carrierDevices, carrierRow, carrierState, carrierType, liveSensor } from './carrier.js';
import { id, pageOf, pageQuery, route } from './route.js';
import { paging } from '../rules.js';
import { MONITOR_FILTERS, TABLE_FILTERS, TABLE_SORTS } from '../board.js';

/** The live board of the databoard (spec §2): the device monitor and a monitoring point's detail. */

export const monitorCarrier = carrierRow.extend({ openExceptions: z.number().int(), state: carrierState, sensors: z.array(liveSensor) });
export type MonitorCarrier = z.infer<typeof monitorCarrier>;

/** What the board's filters have in common: the organisation node (scene subtree), customer, carrier type and a search. */
const boardFilters = {
  customerId: id.optional(),
  sceneId: id.optional(),
  type: carrierType.optional(),
  /** A carrier's name or one of its sensors' numbers, anywhere in it, case-insensitive. */
  search: z.string().trim().max(50).optional(),
  state: z.enum(MONITOR_FILTERS, { error: 'errors.rule.monitorFilter' }).default('all'),
};

/** The monitoring-point table's filters: the board's, with the exact state (stopped included). */
const tableFilters = { ...boardFilters, state: z.enum(TABLE_FILTERS, { error: 'errors.rule.monitorFilter' }).default('all') };
export const monitorTableQuery = pageQuery(tableFilters, TABLE_SORTS);

/** The board's summary over every carrier of its filters (not only the page shown). */
export const monitorCounts = z.object({
  carriers: z.number().int(),
  sensors: z.number().int(),
  online: z.number().int(),
  offline: z.number().int(),
  /** Online sensors reading outside their carrier's zone. */
  alarm: z.number().int(),
  /** Carriers under each state filter, the other filters applied. */
  filters: z.object({ all: z.number().int(), abnormal: z.number().int(), offline: z.number().int(), normal: z.number().int() }),
});
export type MonitorCounts = z.infer<typeof monitorCounts>;

/** The carriers of a scope summed up (home's tiles and status chart): the counts of the board's states and of the carriers' statuses. */
export const monitorSummary = z.object({
  total: z.number().int(),
  byState: z.object({ normal: z.number().int(), abnormal: z.number().int(), offline: z.number().int(), stopped: z.number().int() }),
  /** Carriers per status (1 running … 5 defrost). */
  byStatus: z.record(z.string(), z.number().int()),
  boundSensors: z.number().int(),
  alarmOff: z.number().int(),
  /** Carriers whose alarm is on but would reach nobody, and the first three of their names. */
  reachNobody: z.number().int(),
  reachNobodyNames: z.array(z.string()),
  /**
   * Home's alarm mode widget: carriers by their alarm switch as the board draws it (spec §2: no
   * trigger set is grey whatever the switch; paused apart) and, of those whose alarm is on, how
   * many use each channel.
   */
  alarms: z.object({
    on: z.number().int(),
    off: z.number().int(),
    noTrigger: z.number().int(),
    paused: z.number().int(),
    byChannel: z.object({ email: z.number().int(), sms: z.number().int(), voice: z.number().int() }),
  }),
});
export type MonitorSummary = z.infer<typeof monitorSummary>;

const stateCounts = { total: z.number().int(), normal: z.number().int(), abnormal: z.number().int(), offline: z.number().int(), stopped: z.number().int() };

/** /databoard/overview's figures, summed on the server: carriers by type and by scene per state, and the sensors not reporting (the first ten). */
export const monitorOverview = z.object({
  byType: z.array(z.object({ key: z.number().int(), label: z.string(), ...stateCounts })),
  byScene: z.array(z.object({ key: z.number().int(), label: z.string(), customerName: z.string(), ...stateCounts })),
  offlineSensors: z.object({
    total: z.number().int(),
    rows: z.array(z.object({ id: z.number().int(), devNo: z.string(), status: z.number().int(), lastTs: z.number().nullable(), carrierId: z.number().int(), carrierName: z.string() })),
  }),
});
export type MonitorOverview = z.infer<typeof monitorOverview>;

export const dmApi = {
  mpDetail: route({
    method: 'GET',
    path: '/service/dm/mpDetail',
    tag: 'dm',
    summary: 'Monitoring-point detail: a carrier, its zone, devices and open exceptions',
    query: z.object({ carrierId: id }),
    result: carrierDevices,
  }),
  monitorList: route({
    method: 'GET',
    path: '/service/dm/monitorList',
    tag: 'dm',
    summary: 'Every carrier of a scene with its live sensors, for the device monitor board (with `first`, only the first carriers in board order: the first screen)',
    query: z.object({
      customerId: id.optional(),
      sceneId: id.optional(),
      type: carrierType.optional(),
      name: z.string().trim().max(50).optional(),
      /** Only the first n carriers (board order): the board paints its first screen from these while the whole list comes. */
      first: z.coerce.number().int().min(1).max(1000).optional(),
    }),
    result: z.array(monitorCarrier),
  }),
  monitorPage: route({
    method: 'GET',
    path: '/service/dm/monitorPage',
    tag: 'dm',
    summary: 'One page of the device monitor board (spec paging, board order), filtered and searched on the server, each carrier with its live sensors',
    query: z.object({ ...paging, ...boardFilters }),
    result: pageOf(monitorCarrier),
  }),
  monitorTable: route({
    method: 'GET',
    path: '/service/dm/monitorTable',
    tag: 'dm',
    summary: 'One page of the monitoring-point table (spec paging): filtered by the exact state, searched and sorted (by name, state, live value or its time) on the server',
    query: monitorTableQuery,
    result: pageOf(monitorCarrier),
  }),
  monitorCounts: route({
    method: 'GET',
    path: '/service/dm/monitorCounts',
    tag: 'dm',
    summary: "The device monitor's summary over every carrier of its filters: carriers, sensors online and offline, sensors in alarm, carriers under each state filter",
    query: z.object(boardFilters),
    result: monitorCounts,
  }),
  monitorSummary: route({
    method: 'GET',
    path: '/service/dm/monitorSummary',
    tag: 'dm',
    summary: "The carriers of the caller's scope summed up: per board state, per status, sensors bound, alarms off, alarms that would reach nobody",
    query: z.object({ customerId: boardFilters.customerId, sceneId: boardFilters.sceneId, type: boardFilters.type }),
    result: monitorSummary,
  }),
  monitorOverview: route({
    method: 'GET',
    path: '/service/dm/monitorOverview',
    tag: 'dm',
    summary: "The caller's carriers by type and by scene per board state, and the first sensors not reporting (/databoard/overview)",
    result: monitorOverview,
  }),
};
