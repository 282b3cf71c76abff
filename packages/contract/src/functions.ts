/**
 * Function codes of spec §6: view, new, edit, remove per object. The page-info call
 * returns the caller's codes as `funcs` and as the `auths` map; the server checks the
 * same codes on every route. The full role model assigns them per role (issue 3); in the
 * foundation an administrator holds every code and a normal user the view codes.
 */
const OBJECTS = [
  'Carrier', 'Incubator', 'Car', 'Ex', 'Customer', 'Role', 'User', 'NoticeLog', 'Scene', 'History',
  'ProbeUnit', 'Param', 'Range', 'Forwarding', 'Url', 'RecordPoint', 'SysLog', 'Contact', 'Display',
  'Gateway', 'Sensor', 'Relay', 'AlarmTrigger', 'Type', 'DetectionTask', 'Plinth', 'WorkOrder',
  'Borrow', 'AlarmRecord', 'Download', 'Gas', 'Magnetism', 'VerifyTask', 'ExportTask', 'Statistic',
  'InvalidRule',
] as const;
export type FuncObject = (typeof OBJECTS)[number];

export const ALL_FUNCS: string[] = [
  ...OBJECTS.flatMap((o) => [`view${o}`, `new${o}`, `edit${o}`, `remove${o}`]),
  'viewMonitorPointRealTime',
  'viewDetailData',
];

export const VIEW_FUNCS: string[] = ALL_FUNCS.filter((f) => f.startsWith('view'));

export const func = {
  view: (o: FuncObject) => `view${o}`,
  add: (o: FuncObject) => `new${o}`,
  edit: (o: FuncObject) => `edit${o}`,
  remove: (o: FuncObject) => `remove${o}`,
};
