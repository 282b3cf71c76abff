import type { Queryable } from '../platform/db/client.js';

export interface GatewayInfo {
  id: number;
  customerId: number;
  sn: string;
  secretHash: string;
  status: number;
}

export interface SensorInfo {
  id: number;
  customerId: number;
  carrierId: number | null;
  devNo: string;
  status: number;
}

interface Entry<T> {
  value: T | null;
  expires: number;
}

/**
 * Cached lookups of gateways (by sn) and sensors (by dev) on the ingest path. Enrolment
 * changes are rare and a stale entry only delays them by the TTL; a miss is cached for a
 * shorter time so that a newly enrolled device is accepted quickly. CRUD code that wants
 * the change at once calls invalidate() (AppDeps.ingest.invalidate()).
 */
export class Directory {
  private gateways = new Map<string, Entry<GatewayInfo>>();
  private sensors = new Map<string, Entry<SensorInfo>>();

  constructor(
    private db: Queryable,
    private ttlMs = 30_000,
    private missTtlMs = 5_000,
  ) {}

  invalidate(): void {
    this.gateways.clear();
    this.sensors.clear();
  }

  async gateway(sn: string): Promise<GatewayInfo | null> {
    const now = Date.now();
    const hit = this.gateways.get(sn);
    if (hit && hit.expires > now) return hit.value;
    const rows = await this.db.query<GatewayInfo>(
      `SELECT id, customer_id AS "customerId", sn, secret_hash AS "secretHash", status FROM gateway WHERE sn = $1`,
      [sn],
    );
    const value = rows[0] ?? null;
    this.gateways.set(sn, { value, expires: now + (value ? this.ttlMs : this.missTtlMs) });
    return value;
  }

  /** dev → its sensor, or null when no sensor has that number. Looks up every miss in one query. */
  async sensorsFor(devs: Iterable<string>): Promise<Map<string, SensorInfo | null>> {
    const now = Date.now();
    const out = new Map<string, SensorInfo | null>();
    const missing: string[] = [];
    for (const dev of devs) {
      if (out.has(dev)) continue;
      const hit = this.sensors.get(dev);
      if (hit && hit.expires > now) out.set(dev, hit.value);
      else {
        out.set(dev, null);
        missing.push(dev);
      }
    }
    if (missing.length) {
      const rows = await this.db.query<SensorInfo>(
        `SELECT id, customer_id AS "customerId", carrier_id AS "carrierId", dev_no AS "devNo", status FROM sensor WHERE dev_no = ANY($1::text[])`,
        [missing],
      );
      const found = new Map(rows.map((r) => [r.devNo, r]));
      for (const dev of missing) {
        const value = found.get(dev) ?? null;
        this.sensors.set(dev, { value, expires: now + (value ? this.ttlMs : this.missTtlMs) });
        out.set(dev, value);
      }
      if (this.sensors.size > 200_000) this.evictExpired(now);
    }
    return out;
  }

  private evictExpired(now: number) {
    for (const [k, e] of this.sensors) if (e.expires <= now) this.sensors.delete(k);
  }
}
