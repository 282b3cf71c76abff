/** Carrier types of spec §3 (1 incubator … 7 other), with their routes and menu names of §2. */
export const CARRIER_TYPES = [
  { type: 1, key: 'incubator', route: '/carrier/incubator' },
  { type: 2, key: 'refrigerator', route: '/carrier/refrigerator' },
  { type: 3, key: 'vehicle', route: '/carrier/vehicle' },
  { type: 4, key: 'refrigeratory', route: '/carrier/refrigeratory' },
  { type: 5, key: 'warehouse', route: '/carrier/warehouse' },
  { type: 6, key: 'store', route: '/carrier/store' },
  { type: 7, key: 'other', route: '/carrier/other' },
] as const;
export type CarrierType = (typeof CARRIER_TYPES)[number]['type'];

/** Carrier status of spec §4. */
export const CARRIER_STATUS = { running: 1, scrapped: 2, spare: 3, awaitingRepair: 4, defrost: 5 } as const;

/** Device (sensor, gateway) run status of spec §3/§4. */
export const DEVICE_STATUS = { offline: 0, running: 1, stopped: 2 } as const;

/** Sensor types of spec §3: radio × (thermometer | hygrothermograph), plus gas and door magnet. */
export const SENSOR_TYPES = [
  'zigbee_t', 'zigbee_th', 'lora_t', 'lora_th', 'zeta_t', 'zeta_th',
  'zbp2_t', 'zbp2_th', '4g_t', '4g_th', '4g_th_gps', 'gas', 'magnet',
] as const;
export type SensorType = (typeof SENSOR_TYPES)[number];
/** A thermometer cannot carry a humidity zone (spec §5). */
export const sensorMeasuresHumidity = (t: SensorType) => t.endsWith('_th') || t === '4g_th_gps';

export const GATEWAY_TYPES = ['gw1', 'gw1_gps', 'gw2'] as const;

/** Exception record of spec §3/§4. */
export const EXCEPTION_STATUS = { pending: 0, processed: 1, closed: 2 } as const;
/** `transport`: a vehicle's trip (the retention category, docs/alarms.md "Retention"). */
export const EXCEPTION_TYPES = ['data', 'offline', 'power', 'transport'] as const;
export const EXCEPTION_CATEGORIES = [
  'temp_high', 'temp_low', 'hum_high', 'hum_low', 'sensor_connect', 'gateway_connect', 'gateway_blackout',
  'display_connect', 'relay_connect', 'low_battery', 'retention',
] as const;
export type ExceptionCategory = (typeof EXCEPTION_CATEGORIES)[number];
/**
 * The temperature and humidity categories (type `data`): the only ones that make a carrier
 * abnormal on the board and switch an intelligent relay. The others (type `offline`: the
 * connection of a sensor, gateway, display or relay; type `power`: a gateway's power failure, a
 * low battery) notify and show as the device's own state (docs/alarms.md "Connection, power and battery").
 */
export const DATA_CATEGORIES = ['temp_high', 'temp_low', 'hum_high', 'hum_low'] as const;
export const isDataCategory = (category: string) => (DATA_CATEGORIES as readonly string[]).includes(category);
export const DEVICE_EXCEPTION_TYPE = {
  sensor_connect: 'offline',
  gateway_connect: 'offline',
  display_connect: 'offline',
  relay_connect: 'offline',
  gateway_blackout: 'power',
  low_battery: 'power',
} as const satisfies Partial<Record<ExceptionCategory, (typeof EXCEPTION_TYPES)[number]>>;
export type DeviceExceptionCategory = keyof typeof DEVICE_EXCEPTION_TYPE;

/** Notice log of spec §3. */
export const NOTICE_TYPES = ['alarm', 'captcha', 'workOrder', 'calibration', 'verifyDone', 'verifyDelay', 'verifyOffline', 'verifyException', 'report'] as const;
export const NOTICE_CHANNELS = ['email', 'sms', 'voice'] as const;
export type NoticeChannel = (typeof NOTICE_CHANNELS)[number];
/** `skipped`: written on purpose to say why an alarm went to nobody (the reason in `result`: SKIP_REASONS); never sent. */
export const NOTICE_STATUS = { pending: 0, sent: 1, failed: 2, skipped: 3 } as const;
/** Why an alarm went to nobody: the `result` of a skipped notice (server alarm/recipients.ts). */
export const SKIP_REASONS = ['paused', 'notCovered', 'notifyOff', 'outsideHours', 'noRecipient'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Scope type 0..3 of spec §6: 0 customer use, 1 customer management, 2 platform use, 3 platform management; -1 proxy. */
export const USER_TYPE = { proxy: -1, customerUser: 0, customerAdmin: 1, platformUser: 2, platformAdmin: 3 } as const;

/** Sensor reading kinds of spec §3 and their wire names of device-protocol.md. */
export const READING_FIELDS = ['temp', 'hum', 'volt', 'rssi', 'lqi', 'gas', 'door'] as const;
export type ReadingField = (typeof READING_FIELDS)[number];

/** What a carrier holds (spec §3 Carrier "load type"): decides nothing in the console but filters and reports. */
export const LOAD_TYPES = [0, 1, 2, 3, 4, 5, 6] as const; // 0 general, 1 vaccines, 2 medicines, 3 reagents, 4 blood, 5 food, 6 other
export type LoadType = (typeof LOAD_TYPES)[number];

/** Scene node function types of spec §3; a floor-plan node takes no children (§4). */
export const SCENE_FUNC = { organisation: 0, floorPlan: 1, map: 2, menu: 3 } as const;

/** Carrier mode of spec §3: a carrier in transport mode records along a route. */
export const CARRIER_MODES = ['normal', 'transport'] as const;
export type CarrierMode = (typeof CARRIER_MODES)[number];

/*
 * Plain values the web app's shell uses beside the schemas that check them: here, in a module
 * without zod, so that importing one does not evaluate a schema module's zod definitions on
 * every signed-in page's first paint (docs/performance.md, "Device monitor").
 */

/** Avatar: JPG, JPEG or PNG under 2 MB (spec §5 uploads). Signature: PNG or JPG under 500 KB. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;
export const SIGNATURE_MAX_BYTES = 500 * 1024;
export const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png'] as const;

/** At most this many shortcuts per user: the shortcut bar holds one row. */
export const MAX_SHORTCUTS = 12;

/** Proxy switch answers (spec §7): `result` 200 switched (log in again), 300 already selected. */
export const SwitchResult = { SWITCHED: 200, ALREADY_SELECTED: 300 } as const;

/** Work orders (api/workOrder.ts): plain values, so that the home page's widget loads no schema code. */
export const WORK_ORDER_CATEGORIES = ['repair', 'calibration', 'installation', 'other'] as const;
export type WorkOrderCategory = (typeof WORK_ORDER_CATEGORIES)[number];

export const WORK_ORDER_SUBJECTS = ['sensor', 'gateway', 'carrier', 'exception'] as const;
export type WorkOrderSubject = (typeof WORK_ORDER_SUBJECTS)[number];

export const WORK_ORDER_STATUS = { pending: 0, accepted: 1, rejected: 2, done: 3, confirmed: 4, evaluated: 5, cancelled: 6 } as const;
export type WorkOrderStatus = (typeof WORK_ORDER_STATUS)[keyof typeof WORK_ORDER_STATUS];
export const WORK_ORDER_STATUSES = Object.values(WORK_ORDER_STATUS);

/** The steps after raising it, each a route of its own (its function code gates it). */
export const WORK_ORDER_ACTIONS = ['accept', 'reject', 'record', 'done', 'confirm', 'evaluate', 'cancel'] as const;
export type WorkOrderAction = (typeof WORK_ORDER_ACTIONS)[number] | 'raise';
export type WorkOrderSide = 'customer' | 'provider';

/**
 * Who takes each step, from which states, and where it leads (record keeps the state): the one
 * table the server enforces and the web reads to offer a step. docs/workorders.md draws it.
 */
export const WORK_ORDER_FLOW: Record<(typeof WORK_ORDER_ACTIONS)[number], { side: WorkOrderSide; from: readonly WorkOrderStatus[]; to: WorkOrderStatus | null }> = {
  accept: { side: 'provider', from: [WORK_ORDER_STATUS.pending], to: WORK_ORDER_STATUS.accepted },
  reject: { side: 'provider', from: [WORK_ORDER_STATUS.pending], to: WORK_ORDER_STATUS.rejected },
  record: { side: 'provider', from: [WORK_ORDER_STATUS.accepted], to: null },
  done: { side: 'provider', from: [WORK_ORDER_STATUS.accepted], to: WORK_ORDER_STATUS.done },
  confirm: { side: 'customer', from: [WORK_ORDER_STATUS.done], to: WORK_ORDER_STATUS.confirmed },
  evaluate: { side: 'customer', from: [WORK_ORDER_STATUS.confirmed], to: WORK_ORDER_STATUS.evaluated },
  cancel: { side: 'customer', from: [WORK_ORDER_STATUS.pending], to: WORK_ORDER_STATUS.cancelled },
};
