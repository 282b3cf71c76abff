import { z } from 'zod';
import { loginBody } from '../schemas.js';
import { passwordChangeBody, personalBody, userAddBody, userUpdateBody } from '../user.js';
import { id, idQuery, idResult, idsQuery, ms, pageOf, pageQuery, route } from './route.js';
import { menuNode } from './menu.js';

/** Login, users (spec §3/§5/§8 User), the caller's own pages and the report signature. */

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

const switchEntry = z.object({ id: z.number().int(), name: z.string(), code: z.string(), current: z.boolean() });

export const mineInfo = z.object({
  user: publicUser,
  scope: z.object({ customer_id: z.number().int(), type: z.number().int() }),
  switchScope: z.array(switchEntry),
  guide_on: z.boolean(),
});

export const pageInfo = z.object({
  funcs: z.array(z.string()),
  auths: z.record(z.string(), z.boolean()),
  userRsp: publicUser,
  userType: z.number().int(),
  isRoot: z.boolean(),
  menu: z.array(menuNode),
});

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

const signatureOf = z.object({ userId: id.optional() });
const savedFile = z.object({ id: z.number().int(), size: z.number().int(), mime: z.string() });

export const mineApi = {
  info: route({ method: 'GET', path: '/service/mine/info', tag: 'mine', summary: 'The caller, its scope and the customers it may switch to', result: mineInfo }),
  me: route({ method: 'GET', path: '/service/mine/me', tag: 'mine', summary: 'The caller (same as info)', result: mineInfo }),
  pageInfo: route({ method: 'GET', path: '/service/mine/pageInfo', tag: 'mine', summary: 'Functions, auth map, user and menu of the caller', result: pageInfo }),
  guide: route({ method: 'PUT', path: '/service/mine/guide', tag: 'mine', summary: 'Turn the caller\'s guide on or off', query: z.object({ on: z.enum(['0', '1']) }), result: z.null() }),
  locale: route({
    method: 'PUT',
    path: '/service/mine/locale',
    tag: 'mine',
    summary: 'Store the caller\'s interface language',
    query: z.object({ lang: z.enum(['zh-CN', 'en-US', 'zh_CN', 'en_US']) }),
    result: z.object({ lang: z.string() }),
  }),
  personal: route({ method: 'PUT', path: '/service/mine/personal', tag: 'mine', summary: 'Change the caller\'s own profile', body: personalBody, result: idResult }),
  password: route({ method: 'PUT', path: '/service/mine/password', tag: 'mine', summary: 'Change the caller\'s password (its other sessions end)', body: passwordChangeBody, result: idResult }),
  upload: route({
    method: 'POST',
    path: '/service/mine/upload',
    tag: 'mine',
    summary: 'Upload the caller\'s avatar (multipart; JPG or PNG under 2 MB)',
    result: savedFile.extend({ avatar: z.string().nullable() }),
  }),
  avatar: route({
    method: 'GET',
    path: '/service/mine/avatar',
    tag: 'mine',
    summary: 'The avatar image of the caller or of a user in its scope',
    query: z.object({ id: id.optional(), v: z.string().optional() }),
    result: z.unknown(),
    raw: 'file',
  }),
  saveSignature: route({
    method: 'POST',
    path: '/service/share/signature/save',
    tag: 'mine',
    summary: 'Upload a report signature (multipart; JPG or PNG under 500 KB)',
    query: signatureOf,
    result: savedFile,
  }),
  signature: route({
    method: 'GET',
    path: '/service/share/signature/detail',
    tag: 'mine',
    summary: 'A report signature as a data URL (null when none)',
    query: signatureOf,
    result: z.object({ userId: z.number().int(), signature: z.string().nullable(), mime: z.string().nullable(), size: z.number().int(), updatedAt: ms.nullable() }),
  }),
};
