import type { FuncObject } from './functions.js';

/**
 * The console's menu of spec §2 as menu resources: code (the spec's menu module name),
 * route, icon, the function object whose view/new/edit/remove codes the entry carries,
 * visibility (all, admin type, system scope) and access level 0–4 of spec §6. Sections
 * take the shell's section names of spec §2 (/layout).
 * 0 every user type, 1 customer management and above, 2 platform use and above,
 * 3 platform management and Root, 4 Root only. Names are catalogue keys (`menu.<code>`).
 */
export interface MenuEntry {
  code: string;
  url: string;
  icon?: string;
  object?: FuncObject;
  visible?: 'all' | 'admin' | 'system';
  level?: 0 | 1 | 2 | 3 | 4;
  hidden?: boolean;
  children?: MenuEntry[];
}

export const MENU: MenuEntry[] = [
  { code: 'home', url: '/home', icon: 'home', hidden: true },
  {
    code: 'databoard', url: '/databoard', icon: 'dashboard',
    children: [
      { code: 'deviceMonitor', url: '/databoard/deviceMonitor', object: 'Carrier' },
      { code: 'monitoringPoint', url: '/databoard/monitoringPoint', object: 'Carrier' },
      { code: 'Map', url: '/databoard/monitorMap', object: 'Carrier' },
      { code: 'overview', url: '/databoard/overview', object: 'Statistic' },
    ],
  },
  {
    code: 'carrier', url: '/carrier', icon: 'container',
    children: [
      { code: 'incubator', url: '/carrier/incubator', object: 'Incubator' },
      { code: 'fridge', url: '/carrier/refrigerator', object: 'Carrier' },
      { code: 'car', url: '/carrier/vehicle', object: 'Car' },
      { code: 'refrigeratory', url: '/carrier/refrigeratory', object: 'Carrier' },
      { code: 'warehouse', url: '/carrier/warehouse', object: 'Carrier' },
      { code: 'store', url: '/carrier/store', object: 'Carrier' },
      // Spec §2 lists /carrier/other among the routes; its menu name is not given.
      { code: 'otherCarrier', url: '/carrier/other', object: 'Carrier' },
    ],
  },
  {
    code: 'exception', url: '/abnormal', icon: 'alert',
    children: [
      { code: 'ex', url: '/abnormal/dataex', object: 'Ex' },
      { code: 'exReason', url: '/abnormal/abnormalcause', object: 'Ex' },
      { code: 'invalidRule', url: '/abnormal/invalidRule', object: 'InvalidRule' },
    ],
  },
  {
    code: 'device', url: '/device', icon: 'cluster',
    children: [
      { code: 'sensor', url: '/device/sensor', object: 'Sensor' },
      { code: 'gateway', url: '/device/gateway', object: 'Gateway' },
      { code: 'display', url: '/device/displayscreen', object: 'Display' },
      { code: 'relay', url: '/device/relay', object: 'Relay' },
      { code: 'base', url: '/device/base', object: 'Plinth' },
      { code: 'gas', url: '/device/gas', object: 'Gas' },
      { code: 'magnetism', url: '/device/magnetism', object: 'Magnetism' },
    ],
  },
  {
    code: 'application', url: '/arch', icon: 'apartment',
    children: [
      { code: 'scene', url: '/arch/architecture', object: 'Scene' },
      { code: 'proberange', url: '/arch/detection', object: 'Range' },
      { code: 'verificationTask', url: '/arch/verificationTask', object: 'VerifyTask' },
      // Spec §2 /arch/task (hidden): offline detection per device family; reached from the device pages' links.
      { code: 'monitorTask', url: '/arch/task', object: 'DetectionTask', hidden: true },
      { code: 'collectRecord', url: '/arch/temprecord', object: 'RecordPoint' },
      // Spec §2 /arch/printer (hidden there): print groups, reports and their schedules (issue 30,
      // docs/reports.md). Shown in the menu: nothing else leads to it.
      { code: 'printer', url: '/arch/printer', object: 'Statistic' },
      { code: 'contact', url: '/arch/contacts', object: 'Contact', hidden: true },
      // Spec §2 /arch/alarmRecord (hidden): the alarm records, shown by the alarm switch log (ROUTE_ALIASES).
      { code: 'alarmRecord', url: '/arch/alarmRecord', object: 'AlarmRecord', hidden: true },
      // Spec §2 /arch/download (hidden): the exported files to download (issue 30).
      { code: 'download', url: '/arch/download', object: 'Download', hidden: true },
    ],
  },
  {
    code: 'count', url: '/count', icon: 'bar-chart',
    children: [
      { code: 'analGuidance', url: '/count/guidance', object: 'Statistic' },
      { code: 'detailData', url: '/count/detailData', object: 'History' },
      { code: 'statistic', url: '/count/statistic', object: 'Statistic' },
      { code: 'exportTask', url: '/count/exportTask', object: 'ExportTask' },
    ],
  },
  { code: 'workOrder', url: '/order/workOrder', icon: 'profile', object: 'WorkOrder' },
  // Spec §2 /code/findCode (the section "code"): query codes, which hand a sensor's readings to whoever holds one.
  { code: 'findCode', url: '/code/findCode', icon: 'qrcode', object: 'History' },
  {
    code: 'log', url: '/noti', icon: 'notification',
    children: [
      { code: 'noticelog', url: '/noti/notification', object: 'NoticeLog' },
      { code: 'sysLog', url: '/noti/sysLog', object: 'SysLog', level: 1 },
      { code: 'alarmLog', url: '/noti/alarmLog', object: 'AlarmRecord' },
    ],
  },
  {
    code: 'account', url: '/user', icon: 'team', level: 1, visible: 'admin',
    children: [
      { code: 'user', url: '/user/userinfo', object: 'User', level: 1 },
      { code: 'role', url: '/user/userLimits', object: 'Role', level: 1 },
    ],
  },
  {
    code: 'sys', url: '/sys', icon: 'setting', level: 1,
    children: [
      { code: 'scheduled', url: '/sys/scheduled', object: 'Param', level: 2, visible: 'system' },
      { code: 'param', url: '/sys/paramsetup', object: 'Param', level: 2, visible: 'system' },
      { code: 'forwarding', url: '/sys/forwarding', object: 'Forwarding', level: 1 },
      { code: 'customer', url: '/sys/customer', object: 'Customer', level: 2, visible: 'system' },
      { code: 'resource', url: '/sys/resource', object: 'Url', level: 4, visible: 'system' },
      { code: 'probeunit', url: '/sys/unitMeasurement', object: 'ProbeUnit', level: 2, visible: 'system', hidden: true },
      { code: 'carrierType', url: '/sys/carrierType', object: 'Type', level: 2, visible: 'system', hidden: true },
      { code: 'deviceType', url: '/sys/deviceType', object: 'Type', level: 2, visible: 'system', hidden: true },
      { code: 'deviceTransfer', url: '/sys/deviceTransfer', object: 'Borrow', level: 2, visible: 'system', hidden: true },
      { code: 'onlineHelp', url: '/sys/online_help', level: 0 },
    ],
  },
];

/** Every entry, depth first, with its parent code. */
export function flattenMenu(entries: MenuEntry[] = MENU, parent: string | null = null): (MenuEntry & { parent: string | null })[] {
  return entries.flatMap((e) => [{ ...e, parent }, ...flattenMenu(e.children ?? [], e.code)]);
}

/** Spec §6 access levels: which user types reach a level. Root is the user whose id is 1. */
export function reachesLevel(level: number, userType: number, isRoot: boolean): boolean {
  if (level >= 4) return isRoot;
  if (level === 3) return userType === 3 || isRoot;
  if (level === 2) return userType >= 2;
  if (level === 1) return userType >= 1 || userType === -1;
  return true;
}
