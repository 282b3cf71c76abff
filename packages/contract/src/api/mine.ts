import { z } from 'zod';
import { passwordChangeBody, personalBody } from '../user.js';
import { publicUser } from './user.js';
import { menuNode } from './resource.js';
import { id, idResult, ms, route } from './route.js';

/** The caller's own pages: who it is, its menu and functions, its profile, password, avatar and report signature. */

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
    query: z.object({ lang: z.enum(['zh-CN', 'en-US', 'ja-JP', 'es-ES', 'zh_CN', 'en_US', 'ja_JP', 'es_ES']) }),
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
