/**
 * The scale customer's layout (`npm run seed:scale`, docs/scaling.md "The scale data set"): a
 * provincial cold-chain network, computed from a gateway's number alone so that a bench can
 * drive the seeded gateways without reading the database.
 *
 * For N sensors (a multiple of 100): N / 100 gateways, one per hospital department; each
 * gateway carries 100 sensors and 50 carriers: carriers 0–39 hold two sensors, 40–49 one, and
 * the last 10 sensors are the department's spares (enrolled and reporting, on no carrier).
 * Scene tree: the network → cities (10 hospitals each) → hospitals (10 departments each) →
 * departments, the carriers on the departments. At 100,000 sensors: 1,000 gateways, 50,000
 * carriers, 100 hospitals in 10 cities, 1,111 scenes.
 *
 * Gateway credentials (device-protocol.md "Identity"): `scaleGateway(g)` gives gateway g's
 * serial number (`sn`), MQTT client id = username = sn, password = its secret (the console
 * stores only its hash; HTTP ingest takes it as `Authorization: Bearer {password}`), and its
 * sensors' serial numbers (`dev`) with what each measures and its carrier's zone, e.g.
 *
 *   for (const gw of scaleGateways(100_000))
 *     mqtt.connect(url, { clientId: gw.clientId, username: gw.username, password: gw.password });
 *   // then publish {"readings":[{"dev": gw.sensors[0].dev, "ts": …, "temp": …}]} on cc/{gw.sn}/up/data
 */
import { createHash } from 'node:crypto';
import type { SensorType } from '@coldwatch/contract';
import type { SensorProfile } from '../../server/src/demo/history.js';

export const SCALE_CUSTOMER = { name: 'Scale Network', code: 'SCALE', account: 'scale', password: 'scale123' } as const;
export const SENSORS_PER_GATEWAY = 100;
export const CARRIERS_PER_GATEWAY = 50;
/** Carriers 0..PAIRED-1 of a gateway hold two sensors, the rest of the carriers one. */
const PAIRED = 40;
const DEPARTMENTS_PER_HOSPITAL = 10;
const HOSPITALS_PER_CITY = 10;

export interface Zone {
  temp: [number, number];
  hum?: [number, number];
}

/** What a carrier is: its spec type (§ carrier types), its zone and how its sensors behave. */
interface Kind {
  name: string;
  type: 1 | 2 | 4 | 5;
  zone: Zone;
  profile: SensorProfile;
}

const FRIDGE: Kind = { name: 'Fridge', type: 2, zone: { temp: [2, 8], hum: [35, 75] }, profile: { temp: 5, dailyAmp: 0.3, noise: 0.25, hum: 50, doorsPerDay: 6, doorRise: 1.1 } };
const COLD_ROOM: Kind = { name: 'Cold Room', type: 4, zone: { temp: [-25, -15] }, profile: { temp: -20, dailyAmp: 0.4, noise: 0.3, defrostEveryH: 8, defrostRise: 2.2 } };
const INCUBATOR: Kind = { name: 'Incubator', type: 1, zone: { temp: [36, 38], hum: [70, 95] }, profile: { temp: 37, dailyAmp: 0.05, noise: 0.08, hum: 85, humNoise: 1.2, doorsPerDay: 3, doorRise: -0.4 } };
const STORE: Kind = { name: 'Drug Store', type: 5, zone: { temp: [10, 25], hum: [35, 75] }, profile: { temp: 19, dailyAmp: 1.2, noise: 0.4, hum: 55 } };
/** A carrier's kind by its number on the gateway: mostly fridges, as in a hospital. */
const KINDS: Kind[] = [FRIDGE, FRIDGE, FRIDGE, FRIDGE, FRIDGE, FRIDGE, COLD_ROOM, INCUBATOR, STORE, FRIDGE];

const CITIES = ['Hangzhou', 'Ningbo', 'Wenzhou', 'Jiaxing', 'Huzhou', 'Shaoxing', 'Jinhua', 'Quzhou', 'Zhoushan', 'Taizhou', 'Lishui'];
const DEPARTMENTS = ['Pharmacy', 'Vaccination', 'Laboratory', 'Blood Bank', 'Central Store', 'Emergency', 'Surgery', 'Paediatrics', 'Oncology', 'Logistics'];

export interface ScaleSensor {
  /** Serial number (device-protocol `dev`). */
  dev: string;
  type: SensorType;
  humidity: boolean;
  /** The carrier's number on its gateway (0–49), or null for a spare. */
  carrier: number | null;
  /** The carrier's zone (a spare is kept as a fridge's). */
  zone: Zone;
  profile: SensorProfile;
}

export interface ScaleGateway {
  index: number;
  sn: string;
  clientId: string;
  username: string;
  password: string;
  sensors: ScaleSensor[];
}

export interface ScaleCarrier {
  name: string;
  type: number;
  zone: Zone;
  /** Its sensors' numbers on the gateway (0–99). */
  sensors: number[];
}

/** Gateway g's serial: a MAC-like 12 upper-case hex digits (device-protocol.md). */
export const gatewaySn = (g: number) => `5CA1E${g.toString(16).toUpperCase().padStart(7, '0')}`;
/** Gateway g's secret: fixed by its serial, so a bench can log in as it without the database. */
export const gatewaySecret = (sn: string) => createHash('sha256').update(`coldwatch-scale/${sn}`).digest('hex');
/** Sensor j (0–99) of gateway g. */
export const sensorDev = (g: number, j: number) => `SC${String(g * SENSORS_PER_GATEWAY + j).padStart(7, '0')}`;

/** The carriers of any gateway (the same on each; names get the department's prefix). */
export function gatewayCarriers(): ScaleCarrier[] {
  return Array.from({ length: CARRIERS_PER_GATEWAY }, (_, k) => {
    const kind = KINDS[k % KINDS.length];
    const sensors = k < PAIRED ? [2 * k, 2 * k + 1] : [2 * PAIRED + (k - PAIRED)];
    return { name: `${kind.name} ${String(k + 1).padStart(2, '0')}`, type: kind.type, zone: kind.zone, sensors };
  });
}

/** Sensor j's carrier number on its gateway, or null for a spare. */
function carrierOf(j: number): number | null {
  if (j < 2 * PAIRED) return Math.floor(j / 2);
  const k = PAIRED + (j - 2 * PAIRED);
  return k < CARRIERS_PER_GATEWAY ? k : null;
}

export function scaleGateway(g: number): ScaleGateway {
  const sn = gatewaySn(g);
  const sensors = Array.from({ length: SENSORS_PER_GATEWAY }, (_, j): ScaleSensor => {
    const carrier = carrierOf(j);
    const kind = carrier === null ? FRIDGE : KINDS[carrier % KINDS.length];
    // The first of a pair (and a single probe) reads humidity where the zone has one.
    const humidity = !!kind.zone.hum && (j >= 2 * PAIRED || j % 2 === 0) && carrier !== null;
    const type: SensorType = kind === COLD_ROOM ? 'lora_t' : humidity ? 'zigbee_th' : 'zigbee_t';
    const profile: SensorProfile = { ...kind.profile, temp: kind.profile.temp + ((j % 5) - 2) * 0.15, hum: humidity ? kind.profile.hum : undefined };
    return { dev: sensorDev(g, j), type, humidity, carrier, zone: kind.zone, profile };
  });
  return { index: g, sn, clientId: sn, username: sn, password: gatewaySecret(sn), sensors };
}

/** Every gateway of a scale set of `sensorCount` sensors. */
export function scaleGateways(sensorCount: number): ScaleGateway[] {
  return Array.from({ length: gatewayCount(sensorCount) }, (_, g) => scaleGateway(g));
}

export const gatewayCount = (sensorCount: number) => Math.ceil(sensorCount / SENSORS_PER_GATEWAY);

/** Where gateway g sits in the scene tree, with its coordinates (a province of ~3° × 3°). */
export function placeOf(g: number) {
  const hospital = Math.floor(g / DEPARTMENTS_PER_HOSPITAL);
  const city = Math.floor(hospital / HOSPITALS_PER_CITY);
  const cityLat = 28 + (city % 4) * 0.8 + Math.floor(city / 4) * 0.05;
  const cityLng = 118.5 + Math.floor(city / 4) * 0.9 + (city % 4) * 0.05;
  const h = hospital % HOSPITALS_PER_CITY;
  const lat = cityLat + (h % 4) * 0.04 - 0.06;
  const lng = cityLng + Math.floor(h / 4) * 0.05 - 0.05;
  const d = g % DEPARTMENTS_PER_HOSPITAL;
  const suffix = city >= CITIES.length ? ` ${Math.floor(city / CITIES.length) + 1}` : '';
  return {
    city,
    hospital,
    cityCode: `SCALE-C${city}`,
    cityLabel: `${CITIES[city % CITIES.length]}${suffix}`,
    cityAt: { lat: cityLat, lng: cityLng },
    hospitalCode: `SCALE-H${hospital}`,
    hospitalLabel: `${CITIES[city % CITIES.length]}${suffix} Hospital ${h + 1}`,
    hospitalShort: `H${String(hospital + 1).padStart(3, '0')}`,
    hospitalAt: { lat, lng },
    departmentCode: `SCALE-D${g}`,
    departmentLabel: DEPARTMENTS[d],
    departmentAt: { lat: lat + (d % 3) * 0.0004, lng: lng + Math.floor(d / 3) * 0.0004 },
  };
}
