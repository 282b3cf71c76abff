import { CUSTOMER_STATUS, DEVICE_STATUS } from '@coldwatch/contract';
import type { Queryable } from '../platform/db/client.js';
import type { DirectoryEvent } from '../platform/events.js';

export interface GatewayInfo {
  id: number;
  customerId: number;
  sn: string;
  secretHash: string;
  status: number;
  /** The customer's status (CUSTOMER_STATUS): a cancelled customer's gateways may not send. */
  customerStatus: number;
}

export interface SensorInfo {
  id: number;
  customerId: number;
  carrierId: number | null;
  devNo: string;
  status: number;
  /** The owner of a sensor that is lent out (docs/devices.md "Lending"); null when it is home. */
  lentFrom: number | null;
}

/**
 * Why a reading of another customer's sensor is refused: the sensor this gateway's customer lent
 * out reports elsewhere now (`lent_device`), any other is simply not this customer's.
 */
export const foreignReason = (sensor: SensorInfo, gw: GatewayInfo) => (sensor.lentFrom === gw.customerId ? 'lent_device' : 'foreign_device');

/**
 * Why a gateway may not send at all, or null: its customer is cancelled, or it is stopped. The
 * embedded broker refuses its CONNECT (return code 5, not authorized), HTTP ingest answers 403;
 * behind an external broker, which alone decides who connects, each message is refused with this
 * reason in the reject log.
 */
export const gatewayRefusal = (gw: GatewayInfo): 'cancelled_customer' | 'stopped_gateway' | null =>
  gw.customerStatus === CUSTOMER_STATUS.cancelled ? 'cancelled_customer' : gw.status === DEVICE_STATUS.stopped ? 'stopped_gateway' : null;

/** Unknown sns and numbers kept at most: a scanner trying random ids cannot grow the cache without bound. */
const MAX_MISSES = 10_000;

/**
 * Lookups of gateways (by sn) and sensors (by dev) on the ingest path, kept until a change
 * says otherwise: every change of credentials or ownership emits a DirectoryEvent after its
 * commit (platform/events.ts), and forget() drops what it names, at once. No TTL: a reset
 * secret is refused on the next message, not half a minute later. A lookup that was in flight
 * while something changed does not store its (possibly stale) answer.
 */
export class Directory {
  private gateways = new Map<string, GatewayInfo | null>();
  private sensors = new Map<string, SensorInfo | null>();
  private gatewayMisses = 0;
  private sensorMisses = 0;
  private generation = 0;

  constructor(private db: Queryable) {}

  /** Forgets what the event names; a customer-wide event (or none at all) forgets everything. */
  forget(e: DirectoryEvent = {}): void {
    this.generation++;
    if (e.customerId !== undefined || (!e.gateways && !e.sensors)) {
      this.gateways.clear();
      this.sensors.clear();
      this.gatewayMisses = this.sensorMisses = 0;
      return;
    }
    for (const sn of e.gateways ?? []) this.gateways.delete(sn);
    for (const dev of e.sensors ?? []) this.sensors.delete(dev);
  }

  /**
   * The gateway with this sn. `fresh` reads the database even when the gateway is known (and
   * keeps what it read), falling back to what is known while the database is away: with several
   * replicas a change made on another one reaches this one's events a moment after its answer,
   * and a credential must not be trusted in that moment.
   */
  async gateway(sn: string, opts: { fresh?: boolean } = {}): Promise<GatewayInfo | null> {
    const hit = this.gateways.get(sn);
    if (hit !== undefined && !opts.fresh) return hit;
    const gen = this.generation;
    let rows: GatewayInfo[];
    try {
      rows = await this.db.query<GatewayInfo>(
        `SELECT g.id, g.customer_id AS "customerId", g.sn, g.secret_hash AS "secretHash", g.status, c.status AS "customerStatus"
           FROM gateway g JOIN customer c ON c.id = g.customer_id WHERE g.sn = $1`,
        [sn],
      );
    } catch (err) {
      if (hit !== undefined) return hit;
      throw err;
    }
    const value = rows[0] ?? null;
    if (gen === this.generation) {
      if (!value && ++this.gatewayMisses > MAX_MISSES) this.dropMisses(this.gateways);
      this.gateways.set(sn, value);
    }
    return value;
  }

  /** dev → its sensor, or null when no sensor has that number. Looks up every miss in one query. */
  async sensorsFor(devs: Iterable<string>): Promise<Map<string, SensorInfo | null>> {
    const out = new Map<string, SensorInfo | null>();
    const missing: string[] = [];
    for (const dev of devs) {
      if (out.has(dev)) continue;
      const hit = this.sensors.get(dev);
      if (hit !== undefined) out.set(dev, hit);
      else {
        out.set(dev, null);
        missing.push(dev);
      }
    }
    if (missing.length) {
      const gen = this.generation;
      const rows = await this.db.query<SensorInfo>(
        `SELECT id, customer_id AS "customerId", carrier_id AS "carrierId", dev_no AS "devNo", status, lent_from AS "lentFrom" FROM sensor WHERE dev_no = ANY($1::text[])`,
        [missing],
      );
      const found = new Map(rows.map((r) => [r.devNo, r]));
      for (const dev of missing) {
        const value = found.get(dev) ?? null;
        out.set(dev, value);
        if (gen !== this.generation) continue;
        if (!value && ++this.sensorMisses > MAX_MISSES) this.dropMisses(this.sensors);
        this.sensors.set(dev, value);
      }
    }
    return out;
  }

  private dropMisses(map: Map<string, unknown>) {
    for (const [k, v] of map) if (v === null) map.delete(k);
    if (map === this.gateways) this.gatewayMisses = 0;
    else this.sensorMisses = 0;
  }
}
