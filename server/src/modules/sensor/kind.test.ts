import { beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { TestCtx } from '../../../test/helper.js';
import { uploadAs } from '../../../test/upload.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Gas detectors and door magnets (spec §2 /device/gas, /device/magnetism; §3 gas codes; §7 gas/import, magnetism/import). */

let t: TestCtx;
let a: Records;
let root: string;
withTwoCustomers((c) => ({ t, a } = c));
beforeAll(async () => {
  root = await t.login('admin');
});
const req = requester(() => t);
const page = (base: string, extra = '') => call(t, a.cookie, 'GET', `${base}/page?iDisplayStart=0&iDisplayLength=50${extra}`);
const gas = (body: Record<string, unknown>) => req(a.cookie, 'POST', '/service/gas/add', { devNo: 'G0000001', type: 'gas', gasCode: '0x04', gatewayId: a.gatewayId, ...body });

async function xlsx(header: string[], rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sheet');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('gas detectors and door magnets', () => {
  it('refuses a gas detector without its gas, with an unknown gas, or of another type; each kind lists only its own', async () => {
    expect((await gas({ gasCode: null })).result.errors).toEqual({ gasCode: 'A gas detector names its gas' });
    expect((await gas({ gasCode: '0x99' })).result.errors).toEqual({ gasCode: 'Choose a gas from the list' });
    expect((await gas({ type: 'zigbee_th' })).result.errors).toEqual({ type: 'Unknown sensor type' });
    expect((await gas({})).state.code).toBe(200000);
    const magnet = await call(t, a.cookie, 'POST', '/service/magnetism/add', { devNo: 'M0000001', type: 'magnet', gatewayId: a.gatewayId, carrierId: a.carrierId });

    expect((await page('/service/gas')).rows).toEqual([expect.objectContaining({ devNo: 'G0000001', type: 'gas', gasCode: '0x04' })]);
    // The type catalogue counts a gas detector under its gas.
    const gases = await call(t, a.cookie, 'GET', '/service/share/getDeviceType/gas');
    expect(gases.filter((g: { inUse: number }) => g.inUse > 0)).toEqual([expect.objectContaining({ code: '0x04', inUse: 1 })]);
    expect((await page('/service/gas', '&gasCode=0x01')).total).toBe(0);
    expect((await page('/service/magnetism')).rows.map((r: { devNo: string }) => r.devNo)).toEqual(['M0000001']);
    expect((await page('/service/sensor', '&kind=sensor')).rows.map((r: { devNo: string }) => r.devNo)).toEqual([a.devNo]);
    expect((await page('/service/sensor')).total).toBe(3);

    // A kind's routes never touch another kind's rows.
    const upd = { id: magnet.id, devNo: 'M0000001', type: 'gas', gasCode: '0x01', gatewayId: a.gatewayId };
    expect((await req(a.cookie, 'PUT', '/service/gas/update', upd)).status).toBe(404);
    expect((await req(a.cookie, 'DELETE', `/service/gas/del?ids=${magnet.id}`)).status).toBe(404);
    expect((await req(a.cookie, 'PUT', '/service/gas/status', { ids: [magnet.id], stopped: true })).status).toBe(404);
    expect((await call(t, a.cookie, 'PUT', '/service/magnetism/status', { ids: [magnet.id], stopped: true })).changed).toBe(1);
    expect((await call(t, a.cookie, 'DELETE', `/service/magnetism/del?ids=${magnet.id}`)).deleted).toBe(1);
  });

  it('refuses a gas the catalogue switched off, under the gas field; another gas is still offered', async () => {
    await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'gas', code: '0x0A', enabled: false, remark: 'not sold' });
    try {
      expect((await gas({ devNo: 'G0000002', gasCode: '0x0A' })).result.errors).toEqual({ gasCode: 'This type is switched off in the type catalogue and cannot be chosen for a new device or carrier' });
      expect((await gas({ devNo: 'G0000002', gasCode: '0x01' })).state.code).toBe(200000);
    } finally {
      await call(t, root, 'PUT', '/service/deviceType/update', { kind: 'gas', code: '0x0A', enabled: true, remark: '' });
    }
  });

  it('binds a gas detector or door magnet to a carrier whatever its climate sensors measure', async () => {
    // A carrier with a humidity zone left with a thermometer only (its hygrothermograph lent away, say).
    await t.db.query(`UPDATE sensor SET type = 'zigbee_t' WHERE id = $1`, [a.sensorId]);
    try {
      expect((await gas({ devNo: 'G0000003', gasCode: '0x01', carrierId: a.carrierId })).state.code).toBe(200000);
      expect((await req(a.cookie, 'POST', '/service/magnetism/add', { devNo: 'M0000003', type: 'magnet', gatewayId: a.gatewayId, carrierId: a.carrierId })).state.code).toBe(200000);
      expect((await req(a.cookie, 'POST', '/service/sensor/add', { devNo: 'T0000003', type: 'zigbee_t', gatewayId: a.gatewayId, carrierId: a.carrierId })).result.errors).toEqual({
        carrierId: 'A thermometer cannot have a humidity range',
      });
    } finally {
      await t.db.query(`UPDATE sensor SET type = 'zigbee_th' WHERE id = $1`, [a.sensorId]);
    }
  });

  it('imports gas detectors and door magnets from their own templates, all rows or none', async () => {
    const template = await t.app.inject({ method: 'GET', url: '/service/gas/importTemplate', headers: { cookie: a.cookie, 'accept-language': 'en-US' } });
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(template.rawPayload as unknown as ArrayBuffer);
    const header = (wb.worksheets[0].getRow(1).values as string[]).slice(1);
    expect(header).toEqual(['Device number', 'Gas code', 'Gateway serial number', 'Monitoring point', 'Sample interval (s)', 'Description']);
    expect(wb.worksheets[1].getRow(1).values).toEqual([undefined, '0x00', 'Smoke / propane (0x00)']);

    const rows = [
      ['GIMP0001', '0x01', a.gatewaySn, '', '60', ''],
      ['GIMP0002', 'h2s', a.gatewaySn, '', '60', ''],
    ];
    const refused = await uploadAs(t, '/service/gas/import', a.cookie, 'gas.xlsx', await xlsx(header, rows));
    expect(refused.json().result.errors).toEqual({ '3.gasCode': 'Choose a gas from the list' });
    rows[1][1] = 'co2';
    expect((await uploadAs(t, '/service/gas/import', a.cookie, 'gas.xlsx', await xlsx(header, rows))).json().result).toEqual({ imported: 2 });
    expect(await t.db.query(`SELECT dev_no, type, gas_code FROM sensor WHERE dev_no LIKE 'GIMP%' ORDER BY dev_no`)).toEqual([
      { dev_no: 'GIMP0001', type: 'gas', gas_code: '0x01' },
      { dev_no: 'GIMP0002', type: 'gas', gas_code: 'co2' },
    ]);

    // Another kind's template is the wrong one; the magnets' own imports.
    const wrong = await uploadAs(t, '/service/magnetism/import', a.cookie, 'm.xlsx', await xlsx(header, [['MIMP0001', '0x01', a.gatewaySn, '', '60', '']]));
    expect(wrong.json().state.msg).toBe('Please re-import with the correct template');
    const mHeader = ['Device number', 'Gateway serial number', 'Monitoring point', 'Sample interval (s)', 'Description'];
    expect((await uploadAs(t, '/service/magnetism/import', a.cookie, 'm.xlsx', await xlsx(mHeader, [['MIMP0001', a.gatewaySn, '', '30', 'back door']]))).json().result).toEqual({ imported: 1 });
    expect(await t.db.one(`SELECT type, gas_code, sample_interval FROM sensor WHERE dev_no = 'MIMP0001'`)).toEqual({ type: 'magnet', gas_code: null, sample_interval: 30 });
    // The radio sensors' import takes radio types only: gas detectors name their gas on theirs.
    const sHeader = ['Device number', 'Type', 'Gateway serial number', 'Monitoring point', 'Sample interval (s)', 'Description'];
    expect((await uploadAs(t, '/service/sensor/importSensor', a.cookie, 's.xlsx', await xlsx(sHeader, [['SIMP0001', 'gas', a.gatewaySn, '', '60', '']]))).json().result.errors).toEqual({
      '2.type': 'Unknown sensor type',
    });
  });
});
