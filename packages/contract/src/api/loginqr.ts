import { z } from 'zod';
import { ms, route } from './route.js';

/** Login by QR code (spec §2/§4/§9): the browser shows a code, the signed-in mobile client confirms it. */

const qrIssued = z.object({ key: z.string(), qrcode: z.string(), expiresAt: ms });
const keyQuery = z.object({ key: z.string().trim().min(1).max(64) });

export const loginQrApi = {
  get: route({ method: 'GET', path: '/service/mine/loginQrcode/get', tag: 'mine', summary: 'A new login QR code, valid five minutes', result: qrIssued }),
  refresh: route({
    method: 'GET',
    path: '/service/mine/loginQrcode/refresh',
    tag: 'mine',
    summary: 'End the shown code and issue a new one',
    query: z.object({ key: z.string().trim().max(64).optional() }),
    result: qrIssued,
  }),
  confirm: route({
    method: 'POST',
    path: '/service/mine/loginQrcode/confirm',
    tag: 'mine',
    summary: 'The signed-in mobile client lets the browser showing the code log in',
    query: keyQuery,
    result: z.object({ status: z.literal('confirmed') }),
  }),
};
