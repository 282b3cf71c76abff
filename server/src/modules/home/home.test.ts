import { describe, expect, it } from 'vitest';
import { DEFAULT_WIDGETS, HOME_WIDGET_IDS, translate } from '@coldwatch/contract';
import { requester, withTwoCustomers, type TwoCustomers } from '../shared/records.fixture.js';

/** Home settings (spec §2 /homepageset): `GET`/`PUT /service/mine/homeSetting`, per user, widgets by function. */

let c: TwoCustomers;
withTwoCustomers((x) => (c = x));
const send = requester(() => c.t);
const URL = '/service/mine/homeSetting';

/** A user of customer A whose only role grants `funcs`. */
async function userWith(account: string, funcs: string[]): Promise<string> {
  const role = await c.t.db.one<{ id: number }>(`INSERT INTO role (customer_id, name, level) VALUES ($1, $2, 0) RETURNING id`, [c.a.customerId, `Role ${account}`]);
  for (const f of funcs) await c.t.db.query('INSERT INTO role_func (role_id, func) VALUES ($1, $2)', [role!.id, f]);
  await c.t.addUser(c.a.customerId, account, `Role ${account}`, 0);
  return c.t.login(account);
}

describe('home settings', () => {
  it('a new user gets the default: style classic, the default widgets, nothing saved', async () => {
    const r = await send(c.a.cookie, 'GET', URL);
    expect(r.state.code).toBe(200000);
    expect(r.result).toMatchObject({ style: 'classic', widgets: [...DEFAULT_WIDGETS], sensors: [], saved: false });
    expect(r.result.offered).toEqual(HOME_WIDGET_IDS);
  });

  it('saves the style, the widgets in their order and the sensors; each user keeps its own', async () => {
    const body = { style: 'wall', widgets: ['sensorRecords', 'listMonitor', 'alarmMode'], sensors: [c.a.devNo] };
    const r = await send(c.a.cookie, 'PUT', URL, body);
    expect(r.state.code, JSON.stringify(r)).toBe(200000);
    const back = await send(c.a.cookie, 'GET', URL);
    expect(back.result).toMatchObject({ style: 'wall', widgets: body.widgets, sensors: [{ devNo: c.a.devNo, carrierName: expect.any(String) }], saved: true });
    // Another user's home is untouched.
    expect((await send(c.b.cookie, 'GET', URL)).result.saved).toBe(false);
    const log = await c.t.db.one<{ n: number }>(`SELECT count(*)::int AS n FROM sys_log WHERE module = 'home' AND method = 'homeSetting' AND result = 1`);
    expect(log!.n).toBe(1);
  });

  it('refuses an unknown style or widget, none, and duplicates', async () => {
    const bad = [
      [{ style: 'sixth', widgets: ['alarmMode'] }, 'errors.home.style'],
      [{ style: 'grid', widgets: ['weather'] }, 'errors.home.unknownWidget'],
      [{ style: 'grid', widgets: [] }, 'errors.home.noWidget'],
      [{ style: 'grid', widgets: ['alarmMode', 'alarmMode'] }, 'errors.home.duplicateWidget'],
    ] as const;
    for (const [body, key] of bad) {
      const r = await send(c.a.cookie, 'PUT', URL, body);
      expect(r.status, key).toBe(400);
      expect(JSON.stringify(r.result), key).toContain(translate(key, 'en-US'));
    }
    expect((await send(c.a.cookie, 'PUT', URL, { style: 'grid', widgets: ['alarmMode'] })).state.code).toBe(200000);
  });

  it('a widget whose function the user lacks is not offered and not accepted (500102); one it holds is', async () => {
    const cookie = await userWith('homesensors', ['viewSensor', 'viewHistory']);
    const got = await send(cookie, 'GET', URL);
    expect(got.result.offered).toEqual(['boundDevices', 'sensorRecords']);
    // The default's widgets it may not see are left out.
    expect(got.result.widgets).toEqual(['boundDevices']);
    const refused = await send(cookie, 'PUT', URL, { style: 'column', widgets: ['boundDevices', 'pendingExceptions'] });
    expect(refused.state.code).toBe(500102);
    expect((await send(cookie, 'GET', URL)).result.saved).toBe(false);
    const ok = await send(cookie, 'PUT', URL, { style: 'column', widgets: ['sensorRecords', 'boundDevices'], sensors: [c.a.devNo] });
    expect(ok.state.code).toBe(200000);
    expect(ok.result.widgets).toEqual(['sensorRecords', 'boundDevices']);
  });

  it("a sensor of another customer, an unknown one, or sensors without their widget are refused", async () => {
    const foreign = await send(c.a.cookie, 'PUT', URL, { style: 'grid', widgets: ['sensorRecords'], sensors: [c.b.devNo] });
    expect(foreign.status).toBe(400);
    expect(foreign.state.msg).toBe(translate('errors.home.sensorNotFound', 'en-US'));
    const unknown = await send(c.a.cookie, 'PUT', URL, { style: 'grid', widgets: ['sensorRecords'], sensors: ['NOSUCH'] });
    expect(unknown.state.msg).toBe(translate('errors.home.sensorNotFound', 'en-US'));
    const orphan = await send(c.a.cookie, 'PUT', URL, { style: 'grid', widgets: ['alarmMode'], sensors: [c.a.devNo] });
    expect(orphan.state.msg).toBe(translate('errors.home.sensorsWithoutWidget', 'en-US'));
    const tooMany = await send(c.a.cookie, 'PUT', URL, { style: 'grid', widgets: ['sensorRecords'], sensors: ['A', 'B', 'C', 'D', 'E', 'F', 'G'] });
    expect(JSON.stringify(tooMany.result)).toContain(translate('errors.home.tooManySensors', 'en-US'));
    // B's own sensor is fine for B.
    expect((await send(c.b.cookie, 'PUT', URL, { style: 'grid', widgets: ['sensorRecords'], sensors: [c.b.devNo] })).state.code).toBe(200000);
  });
});
