import { CARRIER_TYPES, GATEWAY_TYPES, SENSOR_TYPES, sensorMeasuresHumidity, type ReadingField, type SensorType } from './enums.js';

/**
 * The device-type catalogue of spec §3: every kind of device the console knows, its types, and
 * the reading kinds each type reports (device-protocol.md field names). The types and what they
 * report are facts of the devices and the protocol, so they live here; what a platform decides
 * (which types it offers for new devices, a note) is kept per type in the database
 * (`type_setting`, /sys/deviceType and /sys/carrierType). Names are catalogue keys
 * (`type:<kind>.<code>`), in both languages.
 */
export const DEVICE_KINDS = ['sensor', 'gas', 'magnet', 'gateway', 'display', 'relay', 'base'] as const;
export type DeviceKind = (typeof DEVICE_KINDS)[number];

/** Gas detectors by the hex code of their gas (spec §3), plus carbon dioxide. */
export const GAS_CODES = ['0x00', '0x01', '0x04', '0x0A', '0x32', 'co2'] as const;
export type GasCode = (typeof GAS_CODES)[number];

/** The sensor rows of spec §2's device menu: radio sensors, gas detectors (/device/gas), door magnets (/device/magnetism). */
export const SENSOR_KINDS = ['sensor', 'gas', 'magnet'] as const;
export type SensorKind = (typeof SENSOR_KINDS)[number];

/**
 * The sensor types that measure no climate: a gas detector and a door magnet are sensor rows,
 * each of a kind of its own (its type is its kind's name); every other type is a radio
 * thermometer or hygrothermograph. Climate is what zones, the humidity rule and the GSP checks
 * are about. SQL takes this list as a parameter rather than spelling it out.
 */
export const NOT_CLIMATE_SENSOR_TYPES = ['gas', 'magnet'] as const satisfies readonly SensorType[];
export type ClimateSensorType = Exclude<SensorType, (typeof NOT_CLIMATE_SENSOR_TYPES)[number]>;

/** The kind of a sensor row's type. */
export const sensorKindOf = (type: string): SensorKind => (NOT_CLIMATE_SENSOR_TYPES as readonly string[]).includes(type) ? (type as SensorKind) : 'sensor';
export const isClimateSensor = (type: string): type is ClimateSensorType => sensorKindOf(type) === 'sensor';
/** The radio thermometers and hygrothermographs: the types of the kind 'sensor'. */
export const CLIMATE_SENSOR_TYPES: readonly ClimateSensorType[] = SENSOR_TYPES.filter(isClimateSensor);

/** The catalogue's one door-magnet type: every sensor row of type 'magnet' is one. */
export const MAGNET_CODE = 'magnet1';

export interface DeviceTypeDef {
  kind: DeviceKind;
  code: string;
  /** What its readings carry; empty for devices that report no measurements (gateways, displays, relays). */
  readings: readonly ReadingField[];
}

const radio = (code: ClimateSensorType): ReadingField[] => {
  const hum = sensorMeasuresHumidity(code);
  const link: ReadingField[] = code.startsWith('zigbee') || code.startsWith('zbp2') ? ['rssi', 'lqi'] : ['rssi'];
  return [hum ? ['temp', 'hum'] : ['temp'], ['volt'], link].flat() as ReadingField[];
};

export const DEVICE_TYPE_CATALOGUE: readonly DeviceTypeDef[] = [
  ...CLIMATE_SENSOR_TYPES.map((code) => ({ kind: 'sensor' as const, code, readings: radio(code) })),
  ...GAS_CODES.map((code) => ({ kind: 'gas' as const, code, readings: ['gas', 'volt', 'rssi'] as ReadingField[] })),
  { kind: 'magnet', code: MAGNET_CODE, readings: ['door', 'volt', 'rssi'] },
  ...GATEWAY_TYPES.map((code) => ({ kind: 'gateway' as const, code, readings: [] as ReadingField[] })),
  { kind: 'display', code: 'display1', readings: [] },
  { kind: 'relay', code: 'relay1', readings: [] },
  // Smart bases (plinths): the radio series, and the probe bases by what they measure.
  ...(['915', '433', '2.4g', '4g'] as const).map((code) => ({ kind: 'base' as const, code, readings: ['temp', 'hum', 'volt', 'rssi'] as ReadingField[] })),
  { kind: 'base', code: 'thermo', readings: ['temp', 'volt', 'rssi'] },
  { kind: 'base', code: 'thermohygro', readings: ['temp', 'hum', 'volt', 'rssi'] },
];

export const deviceTypeDef = (kind: string, code: string) => DEVICE_TYPE_CATALOGUE.find((d) => d.kind === kind && d.code === code);

/** What a sensor row's readings carry, by its type (every gas reports alike). */
export function sensorReadings(type: SensorType): readonly ReadingField[] {
  const kind = sensorKindOf(type);
  return deviceTypeDef(kind, kind === 'sensor' ? type : kind === 'gas' ? GAS_CODES[0] : MAGNET_CODE)?.readings ?? [];
}

/**
 * A sensor row's entry in the catalogue as `kind:code`: a radio sensor's type, a gas detector's
 * gas (`gas:*` for one enrolled before gases were named), the door magnet type.
 */
export function sensorTypeKey(type: string, gas?: string | null): string {
  const kind = sensorKindOf(type);
  if (kind === 'gas') return `gas:${gas ?? '*'}`;
  return kind === 'magnet' ? `magnet:${MAGNET_CODE}` : `sensor:${type}`;
}

/**
 * Whether a sensor row's type is offered, given the switched-off types as `kind:code`: a gas
 * detector while its gas is (with no gas named, while any gas is).
 */
export function sensorTypeOffered(off: ReadonlySet<string>, type: string, gas?: string | null): boolean {
  if (sensorKindOf(type) === 'gas' && !gas) return GAS_CODES.some((c) => !off.has(`gas:${c}`));
  return !off.has(sensorTypeKey(type, gas));
}

/** Carrier types of the catalogue use kind 'carrier' and their number as the code in `type_setting`. */
export const CARRIER_TYPE_KIND = 'carrier';
export const carrierTypeCodes = CARRIER_TYPES.map((c) => String(c.type));
