import { CARRIER_TYPES, GATEWAY_TYPES, SENSOR_TYPES, type ReadingField } from './enums.js';

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

export interface DeviceTypeDef {
  kind: DeviceKind;
  code: string;
  /** What its readings carry; empty for devices that report no measurements (gateways, displays, relays). */
  readings: readonly ReadingField[];
}

const radio = (code: string): ReadingField[] => {
  const hum = code.endsWith('_th') || code === '4g_th_gps';
  const link: ReadingField[] = code.startsWith('zigbee') || code.startsWith('zbp2') ? ['rssi', 'lqi'] : ['rssi'];
  return [hum ? ['temp', 'hum'] : ['temp'], ['volt'], link].flat() as ReadingField[];
};

export const DEVICE_TYPE_CATALOGUE: readonly DeviceTypeDef[] = [
  ...SENSOR_TYPES.filter((c) => c !== 'gas' && c !== 'magnet').map((code) => ({ kind: 'sensor' as const, code, readings: radio(code) })),
  ...GAS_CODES.map((code) => ({ kind: 'gas' as const, code, readings: ['gas', 'volt', 'rssi'] as ReadingField[] })),
  { kind: 'magnet', code: 'magnet1', readings: ['door', 'volt', 'rssi'] },
  ...GATEWAY_TYPES.map((code) => ({ kind: 'gateway' as const, code, readings: [] as ReadingField[] })),
  { kind: 'display', code: 'display1', readings: [] },
  { kind: 'relay', code: 'relay1', readings: [] },
  // Smart bases (plinths): the radio series, and the probe bases by what they measure.
  ...(['915', '433', '2.4g', '4g'] as const).map((code) => ({ kind: 'base' as const, code, readings: ['temp', 'hum', 'volt', 'rssi'] as ReadingField[] })),
  { kind: 'base', code: 'thermo', readings: ['temp', 'volt', 'rssi'] },
  { kind: 'base', code: 'thermohygro', readings: ['temp', 'hum', 'volt', 'rssi'] },
];

export const deviceTypeDef = (kind: string, code: string) => DEVICE_TYPE_CATALOGUE.find((d) => d.kind === kind && d.code === code);

/** The kind in the catalogue of a sensor row's type (the sensor table holds radio sensors, gas detectors and door magnets). */
export const sensorKindOf = (type: string): DeviceKind => (type === 'gas' ? 'gas' : type === 'magnet' ? 'magnet' : 'sensor');

/** Carrier types of the catalogue use kind 'carrier' and their number as the code in `type_setting`. */
export const CARRIER_TYPE_KIND = 'carrier';
export const carrierTypeCodes = CARRIER_TYPES.map((c) => String(c.type));
