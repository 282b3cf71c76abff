/*
 * The home page's styles and widgets (spec §2 /homepageset; docs/home.md), apart from the
 * settings' schemas (api/home.ts) so that the home page, which reads them, loads no zod.
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
