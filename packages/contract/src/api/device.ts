import { z } from 'zod';
import * as r from '../rules.js';
import { deletedResult, id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** What the device kinds' calls share (spec §3 gateways and sensors; §4 stopping and re-enabling). */

/** A page's status filter (DEVICE_STATUS: 0 offline, 1 running, 2 stopped). */
export const deviceStatusFilter = z.coerce.number().int().min(0).max(2);

/** Stop or re-enable devices (spec §4: gateways and relays can be stopped or re-enabled; sensors too). */
export const deviceStatusBody = z.object({
  ids: z.array(id).min(1, { error: 'errors.selectAtLeastOne' }).max(500),
  stopped: z.boolean(),
});
export const statusChanged = z.object({ changed: z.number().int() });

/*
 * The devices on a gateway's bus (relays, displays, smart bases; spec §3): each hangs on a
 * gateway, may serve a monitoring point, has a number of the one device namespace and a type of
 * the catalogue, and is listed, enrolled, changed, stopped and deleted by the same calls.
 */

/** Their bodies' common fields; each kind adds its type and its own settings. */
export const busBodyFields = {
  devNo: r.deviceNo,
  name: r.name(50),
  gatewayId: z.number().int().positive({ error: 'errors.rule.required' }),
  carrierId: z.number().int().positive().nullable().default(null),
  tz: r.timeZone.default('+08:00'),
};

/** Their rows' common fields; each kind adds its own. */
export const busRowFields = {
  id: z.number().int(),
  devNo: z.string(),
  name: z.string(),
  type: z.string(),
  gatewayId: z.number().int(),
  gatewaySn: z.string(),
  gatewayName: z.string(),
  carrierId: z.number().int().nullable(),
  carrierName: z.string().nullable(),
  /** Computed: stopped (2) by a user, else online (1) or offline (0) as its gateway. */
  status: z.number().int(),
  tz: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  createdAt: ms,
};

/**
 * A kind's calls under `base`: its list (by number, name, status and point, plus `filters`), one,
 * enrol (`body`), change (`update`: the body with the id), stop or enable, delete. `one` and
 * `many` name it in the summaries; `notes` add what a kind's list, stop or delete does beyond the
 * others'.
 */
export function busApi<B extends z.ZodObject, U extends z.ZodObject, R extends z.ZodObject, F extends z.ZodRawShape>(d: {
  base: string;
  tag: string;
  one: string;
  many: string;
  body: B;
  update: U;
  row: R;
  filters: F;
  notes?: { page?: string; setStatus?: string; del?: string };
}) {
  const { base, tag, one, many } = d;
  const filters = { devNo: z.string().trim().max(30).optional(), name: z.string().trim().max(50).optional(), status: deviceStatusFilter.optional(), carrierId: id.optional(), ...d.filters };
  return {
    page: route({ method: 'GET', path: `${base}/page`, tag, summary: `${many} of the caller's scope${d.notes?.page ?? ''}, paged`, query: pageQuery(filters, ['devNo', 'name', 'createdAt']), result: pageOf(d.row) }),
    detail: route({ method: 'GET', path: `${base}/detail`, tag, summary: `One ${one}`, query: idQuery, result: d.row }),
    add: route({ method: 'POST', path: `${base}/add`, tag, summary: `Enrol a ${one} on a gateway`, body: d.body, result: idResult }),
    update: route({ method: 'PUT', path: `${base}/update`, tag, summary: `Change a ${one}`, body: d.update, result: idResult }),
    setStatus: route({ method: 'PUT', path: `${base}/status`, tag, summary: `Stop ${many.toLowerCase()}${d.notes?.setStatus ?? ''} or enable them again`, body: deviceStatusBody, result: statusChanged }),
    del: route({ method: 'DELETE', path: `${base}/del`, tag, summary: `Delete ${many.toLowerCase()}${d.notes?.del ?? ''}`, query: idsQuery, result: deletedResult }),
  };
}
