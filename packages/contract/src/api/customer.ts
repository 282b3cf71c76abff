import { z } from 'zod';
import { CUSTOMER_TYPES, ORG_TYPES, customerAddBody, customerRow, customerUpdateBody, proxyCustomer, registerBody } from '../customer.js';
import { id, idQuery, idResult, idsQuery, pageOf, pageQuery, route } from './route.js';

/** Customers (/sys/customer), the proxy switch and the registration of a new company (spec §3, §4, §6, §8). */

const tag = 'customer';
const created = z.object({ code: z.number().int(), id: z.number().int(), account: z.string() });

export const customerApi = {
  page: route({
    method: 'GET',
    path: '/service/customer/page',
    tag,
    summary: 'Customers in the caller\'s scope, paged (platform users)',
    query: pageQuery(
      {
        name: z.string().trim().max(50).optional(),
        code: z.string().trim().max(20).optional(),
        status: z.coerce.number().int().min(0).max(1).optional(),
        type: z.enum(CUSTOMER_TYPES).optional(),
        orgType: z.enum(ORG_TYPES).optional(),
      },
      ['name', 'code', 'status', 'createdAt'],
    ),
    result: pageOf(customerRow),
  }),
  detail: route({ method: 'GET', path: '/service/customer/detail', tag, summary: 'One customer', query: idQuery, result: customerRow }),
  add: route({
    method: 'POST',
    path: '/service/customer/add',
    tag,
    summary: 'Create a customer with its default roles and administrator account',
    body: customerAddBody,
    result: created,
  }),
  update: route({ method: 'PUT', path: '/service/customer/update', tag, summary: 'Change a customer', body: customerUpdateBody, result: idResult }),
  cancel: route({
    method: 'PUT',
    path: '/service/customer/cancel',
    tag,
    summary: 'Cancel customers: their roles, users, devices and alarms stop',
    query: idsQuery,
    result: z.object({ cancelled: z.number().int() }),
  }),
  activate: route({
    method: 'PUT',
    path: '/service/customer/activate',
    tag,
    summary: 'Activate customers: what the cancel stopped runs again',
    query: idsQuery,
    result: z.object({ activated: z.number().int() }),
  }),
  del: route({ method: 'DELETE', path: '/service/customer/del', tag, summary: 'Delete customers with all their data', query: idsQuery, result: z.object({ deleted: z.number().int() }) }),
  proxyCustomers: route({ method: 'GET', path: '/service/mine/proxyCustomers', tag: 'mine', summary: 'The customers a proxy user may switch to', result: z.array(proxyCustomer) }),
  switch: route({
    method: 'GET',
    path: '/service/mine/switch',
    tag: 'mine',
    summary: 'Switch a proxy user to a customer (200 switched, 300 already selected); the session ends',
    query: z.object({ customerId: id }),
    result: z.number().int(),
  }),
  register: route({
    method: 'POST',
    path: '/service/user/register',
    tag: 'user',
    summary: 'Register a new company and its administrator (public)',
    body: registerBody,
    result: created,
  }),
};
