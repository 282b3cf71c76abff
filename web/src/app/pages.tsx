import type { ComponentType } from 'react';
import { preloadable, type Preloadable } from './preloadable';
import { DEFAULT_PAGE_SIZE, dmMapRefs, dmRefs, type Callable, type RouteDef } from '@coldwatch/contract';
import { BOARD_PAGE_SIZE } from '../features/databoard/firstScreen';

/** A page's chunk, loaded when it is first shown or ahead of it (preload.ts). */
export type PageComponent = Preloadable;

const page: (loader: () => Promise<{ default: ComponentType }>) => PageComponent = preloadable;

/**
 * A page inside the shell: its route, tab title, the menu entry (code of pageInfo.menu) that
 * opens it and the function codes it needs. The registry of implemented routes: the left menu
 * and the shortcut bar show only entries whose url is one of these paths.
 */
export interface PageDef {
  path: string;
  titleKey: string;
  /** Code of the menu entry (spec §2 menu module name) this page belongs to; the user's menu must hold it. */
  menuCode?: string;
  /** Function codes of spec §6 needed to open the page (all of them). */
  funcs?: string[];
  /** Only for the user whose id is 1 (spec §6: resource entry). */
  rootOnly?: boolean;
  Component: PageComponent;
  /** The calls the page opens with (operation refs, exactly its first query's input): fetched ahead by preload.ts. */
  prefetch?: readonly { def: Callable<RouteDef>; input: unknown }[];
}

/** The monitoring-point table opens on its first page in board order (useMonitorTable without a filter or sort: tableQuery.ts). */
const MONITOR_TABLE = [{ def: dmRefs.monitorTable, input: { query: { iDisplayStart: 0, iDisplayLength: DEFAULT_PAGE_SIZE } } }] as const;
/** The overview opens on its sums (useCall of monitorOverview, no input). */
const MONITOR_OVERVIEW = [{ def: dmRefs.monitorOverview, input: undefined }] as const;
/** The map opens on its extent (useMapClusters without a filter or a viewport yet); its cells follow once it is placed. */
const MONITOR_MAP = [{ def: dmMapRefs.mapClusters, input: { query: {} } }] as const;
/** The device monitor opens on its first page of cards (useMonitorPage without a filter); the counts follow it. */
const MONITOR_BOARD = [{ def: dmRefs.monitorPage, input: { query: { iDisplayStart: 0, iDisplayLength: BOARD_PAGE_SIZE } } }] as const;

const carrierPage = (type: number) => page(() => import('../features/carrier/CarrierListPage').then((m) => ({ default: m.carrierListOf(type) })));

/** The carrier list routes of spec §2 with their menu codes (§2 menu module names). */
const CARRIER_PAGES: { type: number; path: string; menuCode: string }[] = [
  { type: 1, path: '/carrier/incubator', menuCode: 'incubator' },
  { type: 2, path: '/carrier/refrigerator', menuCode: 'fridge' },
  { type: 3, path: '/carrier/vehicle', menuCode: 'car' },
  { type: 4, path: '/carrier/refrigeratory', menuCode: 'refrigeratory' },
  { type: 5, path: '/carrier/warehouse', menuCode: 'warehouse' },
  { type: 6, path: '/carrier/store', menuCode: 'store' },
  { type: 7, path: '/carrier/other', menuCode: 'otherCarrier' },
];

export const PAGES: PageDef[] = [
  { path: '/home', titleKey: 'shell:page.home', Component: page(() => import('../features/home/HomePage')) },
  {
    path: '/databoard/deviceMonitor',
    titleKey: 'shell:page.deviceMonitor',
    menuCode: 'deviceMonitor',
    funcs: ['viewMonitorPointRealTime'],
    prefetch: MONITOR_BOARD,
    Component: page(() => import('../features/databoard/DeviceMonitorPage')),
  },
  {
    path: '/databoard/monitoringPoint',
    titleKey: 'shell:page.monitoringPoint',
    menuCode: 'monitoringPoint',
    funcs: ['viewMonitorPointRealTime'],
    prefetch: MONITOR_TABLE,
    Component: page(() => import('../features/databoard/MonitoringPointPage')),
  },
  {
    path: '/databoard/monitorMap',
    titleKey: 'shell:page.monitorMap',
    menuCode: 'Map',
    funcs: ['viewMonitorPointRealTime'],
    prefetch: MONITOR_MAP,
    Component: page(() => import('../features/databoard/MonitorMapPage')),
  },
  {
    path: '/databoard/overview',
    titleKey: 'shell:page.overview',
    menuCode: 'overview',
    funcs: ['viewMonitorPointRealTime'],
    prefetch: MONITOR_OVERVIEW,
    Component: page(() => import('../features/databoard/OverviewPage')),
  },
  {
    path: '/abnormal/dataex',
    titleKey: 'shell:page.exceptionRecords',
    menuCode: 'ex',
    funcs: ['viewEx'],
    Component: page(() => import('../features/abnormal/ExceptionListPage')),
  },
  // Spec §2 /abnormal/abnormalcause: the exception reasons; the menu entry's object is Ex (read with viewEx).
  {
    path: '/abnormal/abnormalcause',
    titleKey: 'exreason:title',
    menuCode: 'exReason',
    funcs: ['viewEx'],
    Component: page(() => import('../features/abnormal/ExReasonPage')),
  },
  // Spec §2 /abnormal/invalidRule: rules that make chosen carriers' readings invalid for a time (docs/alarms.md "Invalid rules").
  { path: '/abnormal/invalidRule', titleKey: 'invalidRule:title', menuCode: 'invalidRule', funcs: ['viewInvalidRule'], Component: page(() => import('../features/invalidrule/InvalidRulePage')) },
  {
    path: '/historyData',
    titleKey: 'shell:page.historyData',
    Component: page(() => import('../features/history/HistoryDataPage')),
  },
  // Spec §2 hidden detail routes of the history: a probe's (?deviceNo=) and a carrier's value (?carrierId=), with playback.
  { path: '/probeHistory', titleKey: 'shell:page.historyData', funcs: ['viewHistory'], Component: page(() => import('../features/history/HistoryDataPage')) },
  { path: '/carrierProbeHistory', titleKey: 'shell:page.historyData', funcs: ['viewHistory'], Component: page(() => import('../features/history/HistoryDataPage')) },
  // Spec §2 /count/detailData "Detailed data": every reading of carriers or sensors, paged on the server.
  {
    path: '/count/detailData',
    titleKey: 'detailData:title',
    menuCode: 'detailData',
    funcs: ['viewHistory'],
    Component: page(() => import('../features/detaildata/DetailDataPage')),
  },
  // Spec §2 /count/exportTask: the caller's export tasks, their progress and a new export (docs/exports.md).
  { path: '/count/exportTask', titleKey: 'download:exportTask', menuCode: 'exportTask', funcs: ['viewExportTask'], Component: page(() => import('../features/download/ExportTaskPage')) },
  // Spec §2 /download (and the hidden /arch/download): the download centre, generated exports and reports.
  { path: '/download', titleKey: 'download:download', menuCode: 'download', funcs: ['viewDownload'], Component: page(() => import('../features/download/DownloadPage')) },
  // Spec §2 /count/dataReport: where /count leads; an organisation's monitoring over a span (docs/statistics.md "The data report").
  { path: '/count/dataReport', titleKey: 'dataReport:title', funcs: ['viewStatistic'], Component: page(() => import('../features/datareport/DataReportPage')) },
  // Spec §2 /count/statistic: carriers' statistics over a span, per day, week or month (docs/statistics.md).
  { path: '/count/statistic', titleKey: 'statistic:title', menuCode: 'statistic', funcs: ['viewStatistic'], Component: page(() => import('../features/statistic/StatisticPage')) },
  // Spec §2 /count/guidance "guidance analysis": the GSP checks (docs/compliance.md).
  {
    path: '/count/guidance',
    titleKey: 'compliance:title',
    menuCode: 'analGuidance',
    funcs: ['viewStatistic'],
    Component: page(() => import('../features/compliance/CompliancePage')),
  },
  { path: '/noti/sysLog', titleKey: 'shell:page.sysLog', menuCode: 'sysLog', funcs: ['viewSysLog'], Component: page(() => import('../features/log/SysLogPage')) },
  {
    path: '/user/userinfo',
    titleKey: 'shell:page.user',
    menuCode: 'user',
    funcs: ['viewUser'],
    Component: page(() => import('../features/account/UserInfoPage')),
  },
  {
    path: '/user/userLimits',
    titleKey: 'shell:page.role',
    menuCode: 'role',
    funcs: ['viewRole'],
    Component: page(() => import('../features/account/UserLimitsPage')),
  },
  {
    path: '/sys/customer',
    titleKey: 'shell:page.customer',
    menuCode: 'customer',
    funcs: ['viewCustomer'],
    Component: page(() => import('../features/sys/CustomerPage')),
  },
  // Spec §2 /sys/online_help: the guide's help articles, searchable (docs/help.md); every signed-in user.
  { path: '/sys/online_help', titleKey: 'help:title', menuCode: 'onlineHelp', Component: page(() => import('../features/help/OnlineHelpPage')) },
  {
    path: '/sys/scheduled',
    titleKey: 'shell:page.scheduled',
    menuCode: 'scheduled',
    funcs: ['viewParam'],
    Component: page(() => import('../features/sys/ScheduledPage')),
  },
  // The backups of the daily job: reached from its row on /sys/scheduled, so they share its menu entry.
  {
    path: '/sys/backup',
    titleKey: 'backup:title',
    menuCode: 'scheduled',
    funcs: ['viewParam'],
    Component: page(() => import('../features/backup/BackupPage')),
  },
  // Spec §2 /sys/forwarding (menu forwarding): servers, platforms and forward settings (docs/forwarding.md).
  { path: '/sys/forwarding', titleKey: 'forwarding:title', menuCode: 'forwarding', funcs: ['viewForwarding'], Component: page(() => import('../features/forwarding/ForwardingPage')) },
  {
    path: '/sys/paramsetup',
    titleKey: 'param:title',
    menuCode: 'param',
    funcs: ['viewParam'],
    Component: page(() => import('../features/sys/ParamPage')),
  },
  {
    path: '/sys/resource',
    titleKey: 'shell:page.resource',
    menuCode: 'resource',
    rootOnly: true,
    Component: page(() => import('../features/sys/ResourcePage')),
  },
  ...CARRIER_PAGES.map((c) => ({ path: c.path, titleKey: `carrier:type.${c.type}`, menuCode: c.menuCode, funcs: ['viewCarrier'], Component: carrierPage(c.type) })),
  {
    path: '/carrierDetailPage',
    titleKey: 'shell:page.carrierDetail',
    funcs: ['viewCarrier'],
    Component: page(() => import('../features/carrier/CarrierDetailPage')),
  },
  { path: '/arch/architecture', titleKey: 'shell:page.scene', menuCode: 'scene', funcs: ['viewScene'], Component: page(() => import('../features/arch/ScenePage')) },
  { path: '/arch/detection', titleKey: 'shell:page.detection', menuCode: 'proberange', funcs: ['viewRange'], Component: page(() => import('../features/unit/RangePage')) },
  // Spec §2 /order/workOrder and /code/findCode (docs/workorders.md): work orders, and query codes that hand sensors' readings to someone without an account.
  { path: '/order/workOrder', titleKey: 'shell:page.workOrder', menuCode: 'workOrder', funcs: ['viewWorkOrder'], Component: page(() => import('../features/workorder/WorkOrderPage')) },
  { path: '/code/findCode', titleKey: 'shell:page.findCode', menuCode: 'findCode', funcs: ['viewHistory'], Component: page(() => import('../features/querycode/QueryCodePage')) },
  // Spec §2 /transHistory (docs/transport.md): trips of carriers in transport mode, their route, playback and transport code.
  { path: '/transHistory', titleKey: 'trip:title', funcs: ['viewCar'], Component: page(() => import('../features/trip/TransHistoryPage')) },
  // Spec §2 /arch/task (hidden entry monitorTask): offline detection per device family (docs/devices.md "Monitor tasks").
  { path: '/arch/task', titleKey: 'monitorTask:title', menuCode: 'monitorTask', funcs: ['viewDetectionTask'], Component: page(() => import('../features/monitortask/MonitorTaskPage')) },
  // Spec §2 /arch/temprecord (menu collectRecord): the daily collect records and their signed approval (docs/records.md).
  { path: '/arch/temprecord', titleKey: 'recordPoint:title', menuCode: 'collectRecord', funcs: ['viewRecordPoint'], Component: page(() => import('../features/recordpoint/RecordPointPage')) },
  // Spec §2 /arch/printer (menu printer): print groups, their PDF reports, schedules and signatures (docs/reports.md).
  { path: '/arch/printer', titleKey: 'printer:title', menuCode: 'printer', funcs: ['viewStatistic'], Component: page(() => import('../features/printer/PrinterPage')) },
  // Spec §2 /arch/verificationTask: verification (mapping) tasks and their JJF 1101 figures (docs/statistics.md).
  { path: '/arch/verificationTask', titleKey: 'verifyTask:title', menuCode: 'verificationTask', funcs: ['viewVerifyTask'], Component: page(() => import('../features/verifytask/VerifyTaskPage')) },
  {
    path: '/sys/unitMeasurement',
    titleKey: 'shell:page.unitMeasurement',
    menuCode: 'probeunit',
    funcs: ['viewProbeUnit'],
    Component: page(() => import('../features/unit/UnitPage')),
  },
  { path: '/sys/deviceType', titleKey: 'shell:page.deviceType', menuCode: 'deviceType', funcs: ['viewType'], Component: page(() => import('../features/type/DeviceTypePage')) },
  { path: '/sys/deviceTransfer', titleKey: 'shell:page.deviceTransfer', menuCode: 'deviceTransfer', funcs: ['viewBorrow'], Component: page(() => import('../features/loan/LoanPage')) },
  { path: '/sys/carrierType', titleKey: 'shell:page.carrierType', menuCode: 'carrierType', funcs: ['viewType'], Component: page(() => import('../features/type/CarrierTypePage')) },
  { path: '/arch/contacts', titleKey: 'shell:page.contacts', menuCode: 'contact', funcs: ['viewContact'], Component: page(() => import('../features/contact/ContactPage')) },
  // Spec §2 hidden route /sysAlarm (alarm trigger): reached from the carrier dialog and the log section (docs/alarms.md "Triggers").
  { path: '/sysAlarm', titleKey: 'alarmTrigger:title', funcs: ['viewAlarmTrigger'], Component: page(() => import('../features/alarmtrigger/AlarmTriggerPage')) },
  { path: '/noti/alarmLog', titleKey: 'shell:page.alarmLog', menuCode: 'alarmLog', funcs: ['viewAlarmRecord'], Component: page(() => import('../features/alarmlog/AlarmLogPage')) },
  // Spec §2 /noti/notification: the notice log, every channel, with its retry (docs/alarms.md "Notices").
  { path: '/noti/notification', titleKey: 'notice:title', menuCode: 'noticelog', funcs: ['viewNoticeLog'], Component: page(() => import('../features/notice/NoticeLogPage')) },
  { path: '/plan', titleKey: 'shell:page.plan', funcs: ['viewScene'], Component: page(() => import('../features/plan/PlanPage')) },
  { path: '/wizard', titleKey: 'shell:page.wizard', funcs: ['newGateway', 'newSensor', 'newCarrier'], Component: page(() => import('../features/wizard/WizardPage')) },
  { path: '/device/sensor', titleKey: 'shell:page.sensor', menuCode: 'sensor', funcs: ['viewSensor'], Component: page(() => import('../features/device/SensorPage')) },
  { path: '/device/gas', titleKey: 'shell:page.gas', menuCode: 'gas', funcs: ['viewGas'], Component: page(() => import('../features/device/GasPage')) },
  { path: '/device/magnetism', titleKey: 'shell:page.magnetism', menuCode: 'magnetism', funcs: ['viewMagnetism'], Component: page(() => import('../features/device/MagnetPage')) },
  { path: '/GasDetail', titleKey: 'shell:page.gasDetail', funcs: ['viewGas'], Component: page(() => import('../features/device/SensorDetailPage')) },
  { path: '/device/displayscreen', titleKey: 'shell:page.display', menuCode: 'display', funcs: ['viewDisplay'], Component: page(() => import('../features/display/DisplayPage')) },
  { path: '/DisplayDetail', titleKey: 'shell:page.displayDetail', funcs: ['viewDisplay'], Component: page(() => import('../features/display/DisplayDetailPage')) },
  { path: '/device/base', titleKey: 'shell:page.base', menuCode: 'base', funcs: ['viewPlinth'], Component: page(() => import('../features/base/BasePage')) },
  { path: '/BaseDetail', titleKey: 'shell:page.baseDetail', funcs: ['viewPlinth'], Component: page(() => import('../features/base/BaseDetailPage')) },
  { path: '/device/relay', titleKey: 'shell:page.relay', menuCode: 'relay', funcs: ['viewRelay'], Component: page(() => import('../features/relay/RelayPage')) },
  { path: '/RelayDetail', titleKey: 'shell:page.relayDetail', funcs: ['viewRelay'], Component: page(() => import('../features/relay/RelayDetailPage')) },
  { path: '/device/gateway', titleKey: 'shell:page.gateway', menuCode: 'gateway', funcs: ['viewGateway'], Component: page(() => import('../features/device/GatewayPage')) },
  { path: '/SensorDetail', titleKey: 'shell:page.sensorDetail', funcs: ['viewSensor'], Component: page(() => import('../features/device/SensorDetailPage')) },
  { path: '/GateWayDetail', titleKey: 'shell:page.gatewayDetail', funcs: ['viewGateway'], Component: page(() => import('../features/device/GatewayDetailPage')) },
  { path: '/OperateRecord', titleKey: 'shell:page.configLog', funcs: ['viewSensor'], Component: page(() => import('../features/device/ConfigLogPage')) },
  { path: '/personal/material', titleKey: 'shell:page.material', Component: page(() => import('../features/personal/MaterialPage')) },
  // Spec §2 top-level /homepageset: the user's own home (docs/home.md); no menu entry, the user menu and the home page open it.
  { path: '/homepageset', titleKey: 'shell:page.homepageset', Component: page(() => import('../features/homeset/HomeSetPage')) },
];

/** Section redirects of spec §2 for the sections that have pages (to the first page that exists). */
export const SECTION_REDIRECTS: Record<string, string> = {
  '/layout': '/home',
  '/databoard': '/databoard/deviceMonitor',
  '/abnormal': '/abnormal/dataex',
  '/count': '/count/dataReport',
  '/device': '/device/sensor',
  '/carrier': '/carrier/incubator',
  '/arch': '/arch/architecture',
  '/personal': '/personal/material',
  // Spec §2 top-level /material (edit profile): the same page, one tab.
  '/material': '/personal/material',
  '/user': '/user/userinfo',
  '/noti': '/noti/notification',
  '/code': '/code/findCode',
  '/order': '/order/workOrder',
  // Spec §2: the /sys section's declared default.
  '/sys': '/sys/scheduled',
};

/**
 * Hidden routes of spec §2 whose content lives on another page (docs/architecture.md "Routes"):
 * they open that page with the same query (a carrier's id, a device's number).
 */
export const ROUTE_ALIASES: Record<string, string> = {
  '/carrier/carrierDetailPage': '/carrierDetailPage',
  // "Own window" in the spec: the same detail page, opened by the caller in a window of its own.
  '/newCarrierDetail': '/carrierDetailPage',
  '/monitorPointRealTime': '/databoard/monitoringPoint',
  '/exRecord': '/abnormal/dataex',
  '/arch/alarmRecord': '/noti/alarmLog',
  '/arch/download': '/download',
  '/pointData': '/count/detailData',
  '/sampleData': '/arch/temprecord',
  '/baseHistory': '/historyData',
  '/datadevice': '/databoard/deviceMonitor',
  // Named only in §2; each to the page that holds what its name says: the floor plan ("canvas") of a
  // scene, the supervision platforms (spec §3 Platform) beside the forwarding servers, the commands
  // sent to devices (the config log), the device types with the readings each reports.
  '/canvasName': '/plan',
  '/platInfer': '/sys/forwarding',
  '/atinstruction': '/OperateRecord',
  '/propertyList': '/sys/deviceType',
};

export const pageByPath = (pathname: string) => PAGES.find((p) => p.path === pathname);

/**
 * Starts loading a page's chunk ahead of a likely click (a menu section opening, the pointer on
 * an entry or a shortcut), so that the page then renders at once (preloadable.tsx) instead of
 * behind a spinner that React keeps for at least 300 ms.
 */
export const preloadPage = (pathname: string) => void pageByPath(pathname)?.Component.preload();

/** Paths of the implemented routes (menu urls are matched against these). */
export const IMPLEMENTED = new Set(PAGES.map((p) => p.path));

export interface AccessContext {
  can: (...codes: string[]) => boolean;
  isRoot: boolean;
  /** Codes of the caller's menu (pageInfo.menu, hidden entries included); undefined = not known. */
  menuCodes?: ReadonlySet<string>;
}

/** Whether the caller may open the page: root-only, every function code, and its menu entry granted. */
export function canOpen(page: PageDef, ctx: AccessContext): boolean {
  if (page.rootOnly && !ctx.isRoot) return false;
  if (page.funcs && !ctx.can(...page.funcs)) return false;
  if (page.menuCode && ctx.menuCodes && !ctx.menuCodes.has(page.menuCode)) return false;
  return true;
}
