import { z } from 'zod';
import { route } from './route.js';
import { HOME_STYLES, HOME_WIDGET_IDS, MAX_HOME_SENSORS, type HomeWidget } from '../home.js';

/*
 * Home settings (spec §2 /homepageset and Home; docs/home.md): each user picks one of five home
 * styles and which widgets its home shows, in its order, and the sensors of the "specified
 * sensor records" widget. Kept on the server per user. The spec names no call for it: the
 * caller's own settings live beside its shortcuts, under /service/mine.
 */

export const homeSettingBody = z.object({
  style: z.enum(HOME_STYLES, { error: 'errors.home.style' }),
  widgets: z
    .array(z.enum(HOME_WIDGET_IDS as [HomeWidget, ...HomeWidget[]], { error: 'errors.home.unknownWidget' }))
    .min(1, { error: 'errors.home.noWidget' })
    .refine((w) => new Set(w).size === w.length, { error: 'errors.home.duplicateWidget' }),
  /** Device numbers of the sensors the "specified sensor records" widget shows. */
  sensors: z
    .array(z.string().trim().min(1).max(30))
    .max(MAX_HOME_SENSORS, { error: 'errors.home.tooManySensors' })
    .refine((s) => new Set(s).size === s.length, { error: 'errors.home.duplicateSensor' })
    .default([]),
});
export type HomeSettingBody = z.infer<typeof homeSettingBody>;

export const homeSetting = z.object({
  style: z.enum(HOME_STYLES),
  widgets: z.array(z.enum(HOME_WIDGET_IDS as [HomeWidget, ...HomeWidget[]])),
  sensors: z.array(z.object({ devNo: z.string(), carrierName: z.string().nullable() })),
  /** Every widget the caller may choose (its functions), in the default order. */
  offered: z.array(z.enum(HOME_WIDGET_IDS as [HomeWidget, ...HomeWidget[]])),
  /** False until the caller saves its own: the home shows the default. */
  saved: z.boolean(),
});
export type HomeSetting = z.infer<typeof homeSetting>;

export const homeApi = {
  get: route({ method: 'GET', path: '/service/mine/homeSetting', tag: 'mine', summary: "The caller's home style, widgets and sensors", result: homeSetting }),
  set: route({ method: 'PUT', path: '/service/mine/homeSetting', tag: 'mine', summary: "Save the caller's home style, widgets and sensors", body: homeSettingBody, result: homeSetting }),
};
