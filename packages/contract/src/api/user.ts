import { z } from 'zod';
import { loginBody } from '../schemas.js';
import { userAddBody, userUpdateBody } from '../user.js';
import { id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';

/** Login and users (spec §3/§5/§8 User). */

/** A user as the session and the personal pages see it (no password hash, no file bytes). */
export const publicUser = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  gender: z.number().int(),
  status: z.number().int(),
  customerId: z.number().int(),
  customerName: z.string(),
  customerCode: z.string(),
  timeZone: z.string(),
  userType: z.number().int(),
  isAdmin: z.boolean(),
  defaultAccount: z.boolean(),
  proxyCustomerId: z.number().int().nullable(),
  guideOn: z.boolean(),
  locale: z.string().nullable(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  remarks: z.string(),
  avatar: z.string().nullable(),
  hasSignature: z.boolean(),
  createdAt: ms.nullable(),
});
export type PublicUser = z.infer<typeof publicUser>;

export const userRoleRef = z.object({ id: z.number().int(), name: z.string(), type: z.string(), level: z.number().int() });

export const userRow = z.object({
  id: z.number().int(),
  account: z.string(),
  name: z.string(),
  gender: z.number().int(),
  status: z.number().int(),
  userType: z.number().int(),
  isAdmin: z.boolean(),
  mobile: z.string().nullable(),
  email: z.string().nullable(),
  remarks: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  defaultAccount: z.boolean(),
  proxyCustomerId: z.number().int().nullable(),
  proxyCustomerName: z.string().nullable(),
  roles: z.array(userRoleRef),
  sceneIds: z.array(z.number().int()),
  hasAvatar: z.boolean(),
  hasSignature: z.boolean(),
  createdAt: ms,
});
export type UserRow = z.infer<typeof userRow>;
export const userDetail = userRow.extend({ roleIds: z.array(z.number().int()), resourceIds: z.array(z.number().int()) });

const loginResult = z.object({ user: publicUser });
const tag = 'user';

export const authApi = {
  captcha: route({ method: 'GET', path: '/service/user/captcha', tag, summary: 'A captcha image (SVG); its answer is kept for five minutes', result: z.string(), raw: 'file' }),
  options: route({ method: 'GET', path: '/service/user/loginOptions', tag, summary: 'Whether login asks for a captcha', result: z.object({ captcha: z.boolean() }) }),
  login: route({ method: 'POST', path: '/service/user/login', tag, summary: 'Log in with account and password', body: loginBody, result: loginResult }),
  homeLogin: route({ method: 'POST', path: '/api/home/login', tag, summary: 'Log in (the spec\'s alternative path)', body: loginBody, result: loginResult }),
  logoutPost: route({ method: 'POST', path: '/service/user/logout', tag, summary: 'End this browser\'s session', result: z.null() }),
  logout: route({ method: 'GET', path: '/service/user/logout', tag, summary: 'End this browser\'s session (the spec\'s GET; same-origin requests only)', result: z.null() }),
  qrStatus: route({
    method: 'GET',
    path: '/service/mine/loginQrcode/status',
    tag: 'mine',
    summary: 'Polled by the browser showing a login QR code; logs it in once confirmed',
    query: z.object({ key: z.string().trim().min(1).max(64) }),
    result: z.object({ status: z.enum(['waiting', 'expired', 'confirmed']), user: publicUser.nullable() }),
  }),
};

export const userApi = {
  page: route({
    method: 'GET',
    path: '/service/user/page',
    tag,
    summary: 'Users of the caller\'s customers, paged',
    query: pageQuery({
      account: z.string().trim().max(50).optional(),
      name: z.string().trim().max(50).optional(),
      mobile: z.string().trim().max(20).optional(),
      status: z.coerce.number().int().min(0).max(1).optional(),
      customerId: id.optional(),
      roleId: id.optional(),
    }),
    result: pageOf(userRow),
  }),
  detail: route({ method: 'GET', path: '/service/user/detail', tag, summary: 'One user with roles, scenes and operable resources', query: idQuery, result: userDetail }),
  add: route({
    method: 'POST',
    path: '/service/user/add',
    tag,
    summary: 'Create a user (a temporary password is answered once when none is given)',
    body: userAddBody,
    result: z.object({ id: z.number().int(), password: z.string().optional() }),
  }),
  update: route({ method: 'PUT', path: '/service/user/update', tag, summary: 'Change a user', body: userUpdateBody, result: idResult }),
  del: route({ method: 'DELETE', path: '/service/user/del', tag, summary: 'Delete users', query: idsQuery, result: z.object({ deleted: z.number().int() }) }),
  status: route({
    method: 'PUT',
    path: '/service/user/status',
    tag,
    summary: 'Activate or cancel users',
    query: idsQuery.extend({ status: z.enum(['0', '1'], { error: 'errors.user.statusEmpty' }) }),
    result: z.object({ updated: z.number().int(), status: z.number().int() }),
  }),
  resetPassword: route({
    method: 'PUT',
    path: '/service/user/resetPassword',
    tag,
    summary: 'Give a user a temporary password (answered once)',
    query: idQuery,
    result: z.object({ code: z.number().int(), id: z.number().int(), account: z.string(), password: z.string() }),
  }),
};
