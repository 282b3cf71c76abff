/**
 * The home widgets by id (contract HOME_WIDGETS), each in its own chunk: the home route loads
 * the code of the widgets the user chose and no other (docs/performance.md), and a map or a
 * gauge costs nothing to a home that does not show one.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { HomeSetting, HomeWidget } from '@coldwatch/contract';

type WidgetProps = { sensors: HomeSetting['sensors']; gateways: boolean; sensorsAllowed: boolean };
type Loaded = LazyExoticComponent<ComponentType<WidgetProps>>;
const of = <P,>(load: () => Promise<ComponentType<P>>) => lazy(() => load().then((C) => ({ default: C as ComponentType<WidgetProps> }))) as Loaded;

export const WIDGETS: Record<HomeWidget, Loaded> = {
  carrierStatus: of(() => import('./CarrierWidgets').then((m) => m.CarrierStatusWidget)),
  boundDevices: of(() => import('./DeviceWidget').then((m) => (p: WidgetProps) => <m.DeviceWidget sensors={p.sensorsAllowed} gateways={p.gateways} />)),
  exceptionStats: of(() => import('./ExceptionWidgets').then((m) => m.ExceptionStatsWidget)),
  alarmMode: of(() => import('./AlarmModeWidget').then((m) => m.default)),
  pendingExceptions: of(() => import('./ExceptionWidgets').then((m) => () => <m.LatestExceptions pending />)),
  sensorRecords: of(() => import('./SensorRecordsWidget').then((m) => m.default)),
  passRate: of(() => import('../statistic/PassRateWidget').then((m) => m.PassRateWidget)),
  mapMonitor: of(() => import('./MapWidget').then((m) => m.default)),
  listMonitor: of(() => import('./ListMonitorWidget').then((m) => m.default)),
  dashboard: of(() => import('./DashboardWidget').then((m) => m.default)),
  workOrders: of(() => import('../workorder/WorkOrderWidget').then((m) => m.WorkOrderWidget)),
};
export type { WidgetProps };
