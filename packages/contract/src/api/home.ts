import { z } from 'zod';
import { route } from './route.js';

/*
 * Home settings (spec §2 /homepageset and Home; docs/home.md): each user picks one of five home
 * styles and which widgets its home shows, in its order, and the sensors of the "specified
 * sensor records" widget. Kept on the server per user. The spec names no call for it: the
 * caller's own settings live beside its shortcuts, under /service/mine.
 */

/** The five home styles (layouts): how the widgets are laid out, not which ones. */
export const HOME_STYLES = ['classic', 'focus', 'grid', 'column', 'wall'] as const;
export type HomeStyle = (typeof HOME_STYLES)[number];

/**
 * The home widgets of spec §2, each with the function codes of which the caller needs one
 * (spec §6): a widget whose function the user lacks is neither offered nor accepted. Work orders
 * were on the home page before the settings existed; they stay a widget the user may choose.
 */
export const HOME_WIDGETS = {
  carrierStatus: ['viewMonitorPointRealTime'],
  boundDevices: ['viewSensor', 'viewGateway'],
  exceptionStats: ['viewEx'],
  alarmMode: ['viewMonitorPointRealTime'],
  pendingExceptions: ['viewEx'],
  sensorRecords: ['viewHistory'],
  passRate: ['viewStatistic'],
  mapMonitor: ['viewMonitorPointRealTime'],
  listMonitor: ['viewMonitorPointRealTime'],
  dashboard: ['viewMonitorPointRealTime'],
  workOrders: ['viewWorkOrder'],
} as const satisfies Record<string, readonly string[]>;
export type HomeWidget = keyof typeof HOME_WIDGETS;
export const HOME_WIDGET_IDS = Object.keys(HOME_WIDGETS) as HomeWidget[];

/** The widgets a user holding `has` may see, in the default order. */
export const allowedWidgets = (has: (func: string) => boolean): HomeWidget[] => HOME_WIDGET_IDS.filter((w) => HOME_WIDGETS[w].some(has));

/**
 * A new user's home: what the home page showed before the settings existed, where allowed. The
 * latest five exceptions (spec §9) are on every home of a user who may see exceptions, not a widget.
 */
export const DEFAULT_WIDGETS: readonly HomeWidget[] = ['exceptionStats', 'carrierStatus', 'boundDevices', 'workOrders', 'passRate'];

/** At most this many sensors in the "specified sensor records" widget (each is one chart line). */
export const MAX_HOME_SENSORS = 6;

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
