import { describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import type { TestCtx } from '../../../test/helper.js';
import { uploadAs } from '../../../test/upload.js';
import { call, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Sensor import of spec §7 (sensor/importSensor): all rows or none, every bad row named. */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));

const HEADER = ['Device number', 'Type', 'Gateway serial number', 'Monitoring point', 'Sample interval (s)', 'Description'];

async function xlsx(rows: (string | number)[][], header = HEADER): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Sensors');
  ws.addRow(header);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
const rows = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => [`${prefix}${String(i).padStart(5, '0')}`, 'zigbee_th', a.gatewaySn, '', 60, `row ${i}`]);
const upload = (data: Buffer, name = 'sensors.xlsx', cookie = a.cookie) => uploadAs(t, '/service/sensor/importSensor', cookie, name, data);
const count = async (prefix: string) => (await t.db.one<{ n: number }>('SELECT count(*)::int AS n FROM sensor WHERE dev_no LIKE $1', [`${prefix}%`]))!.n;

describe('sensor import', () => {
  it('refuses a file of 200 rows with one bad row whole, naming the row and field; the fixed file imports all 200', async () => {
    const list = rows(200, 'IMP');
    list[136] = ['IMP-BAD', 'zigbee_th', a.gatewaySn, '', 60, ''];
    const refused = await upload(await xlsx(list));
    expect(refused.statusCode).toBe(400);
    expect(refused.json().state).toEqual({ code: 400, msg: '1 errors in the file; nothing was imported' });
    // Excel's row 138: the header is row 1 and list[136] is the 137th data row.
    expect(refused.json().result.errors).toEqual({ '138.devNo': 'Device number: letters and digits, at most 30' });
    expect(await count('IMP')).toBe(0);

    list[136] = ['IMP00136', 'zigbee_th', a.gatewaySn.toLowerCase(), 'AlphaFridge', '', ''];
    const ok = await upload(await xlsx(list));
    expect(ok.json()).toMatchObject({ state: { code: 200000 }, result: { imported: 200 } });
    expect(await count('IMP')).toBe(200);
    const bound = await t.db.one<{ carrier_id: number; sample_interval: number; customer_id: number }>('SELECT carrier_id, sample_interval, customer_id FROM sensor WHERE dev_no = $1', ['IMP00136']);
    expect(bound).toEqual({ carrier_id: a.carrierId, sample_interval: 60, customer_id: a.customerId });
  });

  it('names every bad field of every row: duplicates in the file and on the platform, unknown gateway and carrier, bad type and interval', async () => {
    const bad = await upload(
      await xlsx([
        ['DUP00001', 'zigbee_th', a.gatewaySn, '', 60, ''],
        ['DUP00001', 'zigbee_th', a.gatewaySn, '', 60, ''],
        [b.devNo, 'zigbee_th', a.gatewaySn, '', 60, ''],
        ['NEW00001', 'thermo', b.gatewaySn, 'Nowhere', 5, ''],
      ]),
    );
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().result.errors).sort()).toEqual(['3.devNo', '4.devNo', '5.carrier', '5.gatewaySn', '5.sampleInterval', '5.type']);
    expect(bad.json().result.errors['5.gatewaySn']).toBe('No gateway of yours has this serial number');
    expect(await count('DUP')).toBe(0);
  });

  it('answers the spec messages for an empty file, a wrong template and a file that is not xlsx', async () => {
    expect((await upload(await xlsx([]))).json().state).toEqual({ code: 500000, msg: 'The import file is empty' });
    expect((await upload(await xlsx([['x', 'y']], ['Name', 'Colour']))).json().state).toEqual({ code: 500000, msg: 'Please re-import with the correct template' });
    expect((await upload(Buffer.from('devNo,type\nX,Y'), 'sensors.csv')).json().state).toEqual({ code: 500000, msg: 'Only .xlsx files can be imported' });
    expect((await upload(Buffer.from('not a zip'), 'sensors.xlsx')).json().state.msg).toBe('Only .xlsx files can be imported');
  });

  it('gives a template in the caller\'s language that imports as it is, in either language', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/service/sensor/importTemplate', headers: { cookie: a.cookie, 'accept-language': 'zh-CN' } });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(wb.worksheets[0].getRow(1).values).toEqual([undefined, '设备编号', '类型', '网关序列号', '监测点', '采集间隔（秒）', '描述']);
    // The example row, filled with this customer's gateway and without the example carrier, imports.
    const ws = wb.worksheets[0];
    ws.getRow(2).getCell(1).value = 'TPL00001';
    ws.getRow(2).getCell(3).value = a.gatewaySn;
    ws.getRow(2).getCell(4).value = '';
    const ok = await upload(Buffer.from(await wb.xlsx.writeBuffer()));
    expect(ok.json().result).toEqual({ imported: 1 });
  });

  it("refuses another customer's gateway and leaves that customer untouched", async () => {
    const r = await upload(await xlsx([['FOR00001', 'zigbee_th', a.gatewaySn, '', 60, '']]), 'x.xlsx', b.cookie);
    expect(r.json().result.errors).toEqual({ '2.gatewaySn': 'No gateway of yours has this serial number' });
    expect(await count('FOR')).toBe(0);
    expect((await call(t, a.cookie, 'GET', '/service/sensor/page?devNo=FOR')).total).toBe(0);
  });
});
