import { z } from 'zod';
import { contactAddBody, contactUpdateBody } from '../schemas.js';
import { LOCALES } from '../locale.js';
import { deletedResult, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Contacts of spec §3: who receives a carrier's alarm notices. */

export const contactRow = z.object({
  id: z.number().int(),
  name: z.string(),
  gender: z.number().int(),
  phone: z.string(),
  email: z.string(),
  alarmLevel: z.number().int(),
  groupName: z.string(),
  /** The language of its notices; null: the customer's. */
  locale: z.string().nullable(),
  customerId: z.number().int(),
  customerName: z.string(),
  carrierCount: z.number().int(),
  createdAt: ms,
});
export type ContactRow = z.infer<typeof contactRow>;

/** The language of a contact's notices (issue 28); null: the customer's (docs/alarms.md "Notices"). */
const withLocale = { locale: z.enum(LOCALES).nullable().default(null) };
export type ContactLocale = { locale: (typeof LOCALES)[number] | null };

const tag = 'contact';
export const contactApi = {
  page: route({
    method: 'GET',
    path: '/service/contact/page',
    tag,
    summary: 'Contacts of the caller\'s customers, paged',
    query: pageQuery(
      { name: z.string().trim().max(30).optional(), phone: z.string().trim().max(20).optional(), groupName: z.string().trim().max(50).optional() },
      ['name', 'groupName', 'alarmLevel', 'createdAt'],
    ),
    result: pageOf(contactRow),
  }),
  detail: route({ method: 'GET', path: '/service/contact/detail', tag, summary: 'One contact', query: idQuery, result: contactRow }),
  add: route({ method: 'POST', path: '/service/contact/add', tag, summary: 'Create a contact', body: contactAddBody.safeExtend(withLocale), result: idResult }),
  update: route({ method: 'PUT', path: '/service/contact/update', tag, summary: 'Change a contact', body: contactUpdateBody.safeExtend(withLocale), result: idResult }),
  del: route({ method: 'DELETE', path: '/service/contact/del', tag, summary: 'Delete contacts (they leave their carriers\' notice lists)', query: idsQuery, result: deletedResult }),
};
