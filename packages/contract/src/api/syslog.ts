import { z } from 'zod';
import { ms, pageOf, pageQuery, route, startNotAfterEnd, timeRange } from './route.js';

/** The system log of spec §3: every mutation's time, module, operator, method, content, parameters and result. */

export const sysLogRow = z.object({
  id: z.number().int(),
  time: ms,
  module: z.string(),
  operator: z.string(),
  method: z.string(),
  content: z.string(),
  params: z.unknown(),
  /** 1 success, 0 failed. */
  result: z.number().int(),
  /** The client address of the request that wrote the row (behind a trusted proxy, the forwarded one); null before it was recorded. */
  ip: z.string().nullable(),
  customerId: z.number().int().nullable(),
  customerName: z.string().nullable(),
});
export type SysLogRow = z.infer<typeof sysLogRow>;

export const syslogApi = {
  page: route({
    method: 'GET',
    path: '/service/syslog/page',
    tag: 'syslog',
    summary: 'The system log of the caller\'s customers, newest first',
    query: pageQuery({
      module: z.string().trim().max(40).optional(),
      operator: z.string().trim().max(50).optional(),
      method: z.string().trim().max(60).optional(),
      result: z.coerce.number().int().min(0).max(1).optional(),
      content: z.string().trim().max(100).optional(),
      ...timeRange,
      /** Platform users (and proxies) narrow to one customer; outside the caller's scope it finds nothing. */
      customerId: z.coerce.number().int().positive().optional(),
    }).refine(...startNotAfterEnd),
    result: pageOf(sysLogRow),
  }),
  modules: route({ method: 'GET', path: '/service/syslog/modules', tag: 'syslog', summary: 'The module names in the caller\'s part of the log', result: z.array(z.string()) }),
};
