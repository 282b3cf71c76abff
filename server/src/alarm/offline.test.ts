import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MONITOR_FAMILIES, offlineAfterS, SENSOR_TYPES, sensorFamily, UNIT_SECONDS, type IntervalUnit, type MonitorFamily } from '@coldwatch/contract';
import { freshDb } from '../../test/db.js';
import type { Db } from '../platform/db/client.js';
import { displayOfflineAfterS, gatewayOfflineAfterS, relayOfflineAfterS, sensorFamilySql, sensorOfflineAfterS, sensorTaskRuns } from './offline.js';

/*
 * The offline rule has one home (offline.ts) written twice: SQL for the statements and the
 * contract's offlineAfterS for TypeScript. Every family, task state and sample interval must
 * give the same seconds in both, and a task's change must change what the SQL says.
 */

let db: Db;
let drop: () => Promise<void>;
let customer: number;

beforeAll(async () => {
  ({ db, drop } = await freshDb());
  customer = (await db.one<{ id: number }>(`INSERT INTO customer (name, short_name, code, type) VALUES ('Rule', 'Rule', 'RULE', 'customer') RETURNING id`))!.id;
}, 120_000);
afterAll(() => drop());

const setTask = (family: MonitorFamily, value: number, unit: IntervalUnit, status: number) =>
  db.query(
    `INSERT INTO monitor_task (customer_id, family, interval_value, interval_unit, status) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (customer_id, family) DO UPDATE SET interval_value = EXCLUDED.interval_value, interval_unit = EXCLUDED.interval_unit, status = EXCLUDED.status`,
    [customer, family, value, unit, status],
  );

/** The SQL's answer for a sensor row of this type and sample interval. */
async function sqlSensor(type: string, sampleInterval: number): Promise<{ after: number; family: string; runs: boolean }> {
  const row = await db.one<{ after: number; family: string; runs: boolean }>(
    `SELECT ${sensorOfflineAfterS('s')} AS after, ${sensorFamilySql('s.type')} AS family, ${sensorTaskRuns('s')} AS runs
       FROM (SELECT $1::int AS customer_id, $2::text AS type, $3::int AS sample_interval) s`,
    [customer, type, sampleInterval],
  );
  return { ...row!, after: Number(row!.after) };
}

const fixed = { gateway: gatewayOfflineAfterS, display: displayOfflineAfterS, relay: relayOfflineAfterS } as const;
async function sqlFixed(family: keyof typeof fixed): Promise<number> {
  const row = await db.one<{ after: number }>(`SELECT ${fixed[family]('d')} AS after FROM (SELECT $1::int AS customer_id) d`, [customer]);
  return Number(row!.after);
}

describe('the offline rule (alarm/offline.ts, contract offlineAfterS)', () => {
  const types = [...SENSOR_TYPES, 'th', 'unknown'];

  it('maps every sensor type to the same family in SQL as in the contract', async () => {
    for (const type of types) expect((await sqlSensor(type, 60)).family, type).toBe(sensorFamily(type));
    expect(new Set(SENSOR_TYPES.map(sensorFamily))).toEqual(new Set(['zbp', 'zbp2', '4g', 'lora', 'zeta']));
  });

  it('gives the same seconds in SQL as in TypeScript for every family, task state and sample interval', async () => {
    const states: [number, IntervalUnit, number][] = [[1, 'minute', 1], [2, 'hour', 1], [3, 'day', 1], [1, 'minute', 0], [20, 'minute', 0]];
    for (const family of MONITOR_FAMILIES) await db.query('DELETE FROM monitor_task WHERE family = $1', [family]);
    const check = async (task: { intervalS: number; status: number } | null) => {
      for (const type of types) {
        for (const sample of [10, 60, 600, 3600]) {
          const family = sensorFamily(type);
          const expected = offlineAfterS(family, task, sample);
          expect((await sqlSensor(type, sample)).after, `${type} ${sample} s ${JSON.stringify(task)}`).toBe(expected);
        }
      }
      for (const family of ['gateway', 'display', 'relay'] as const) expect(await sqlFixed(family), family).toBe(offlineAfterS(family, task));
    };
    // No rows: every family inherits its default.
    await check(null);
    for (const [value, unit, status] of states) {
      for (const family of MONITOR_FAMILIES) await setTask(family, value, unit, status);
      await check({ intervalS: value * UNIT_SECONDS[unit], status });
    }
  });

  it('the fault-detection tolerance coefficient (spec §3, /sys/paramsetup) moves the sensor floor, in SQL as in TypeScript', async () => {
    for (const family of MONITOR_FAMILIES) await db.query('DELETE FROM monitor_task WHERE family = $1', [family]);
    // A sensor reporting every 10 minutes: the floor (3 × 600 + 60 s) is above the 10-minute default.
    expect((await sqlSensor('zigbee_th', 600)).after).toBe(1860);
    await db.query(`INSERT INTO setting (key, value) VALUES ('fault_tolerance_coefficient', '5') ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`);
    expect((await sqlSensor('zigbee_th', 600)).after).toBe(3060);
    expect((await sqlSensor('zigbee_th', 600)).after).toBe(offlineAfterS('zbp', null, 600, 5));
    // Below the family's default the default still rules: 1 × 60 + 60 s < 600 s.
    await db.query(`UPDATE setting SET value = '1' WHERE key = 'fault_tolerance_coefficient'`);
    expect((await sqlSensor('zigbee_th', 60)).after).toBe(600);
    // A value that is not a whole number (written by hand) is the default.
    await db.query(`UPDATE setting SET value = 'x' WHERE key = 'fault_tolerance_coefficient'`);
    expect((await sqlSensor('zigbee_th', 600)).after).toBe(1860);
    await db.query(`DELETE FROM setting WHERE key = 'fault_tolerance_coefficient'`);
  });

  it('a running task moves the threshold, a stopped one falls back to the default but stops the alarms; never below the sensor floor', async () => {
    await setTask('zbp', 2, 'hour', 1);
    expect(await sqlSensor('zigbee_th', 60)).toMatchObject({ after: 7200, runs: true });
    await setTask('zbp', 2, 'hour', 0);
    // Stopped: the default ten minutes still judge the board's offline state; no connection alarm.
    expect(await sqlSensor('zigbee_th', 60)).toMatchObject({ after: 600, runs: false });
    await setTask('zbp', 1, 'minute', 1);
    // A minute of task under a half-hour sample interval: three missed reports and a minute.
    expect(await sqlSensor('zigbee_th', 1800)).toMatchObject({ after: 3 * 1800 + 60, runs: true });
    // Another family's task changes nothing here.
    await setTask('lora', 5, 'minute', 1);
    expect((await sqlSensor('zigbee_th', 10)).after).toBe(90);
    expect((await sqlSensor('lora_t', 10)).after).toBe(300);
  });

  it('refuses a task beyond 30 days or of no known family (the table checks what the contract checks)', async () => {
    await expect(setTask('zbp', 31, 'day', 1)).rejects.toThrow();
    await expect(setTask('nfc' as MonitorFamily, 1, 'day', 1)).rejects.toThrow();
    await expect(setTask('zbp', 0, 'minute', 1)).rejects.toThrow();
  });
});
