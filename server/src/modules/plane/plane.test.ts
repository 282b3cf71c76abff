import { describe, expect, it } from 'vitest';
import type { TestCtx } from '../../../test/helper.js';
import { png, uploadAs } from '../../../test/upload.js';
import { call, requester, withTwoCustomers, type Records } from '../shared/records.fixture.js';

/** Floor plans: a picture on a funcType 1 node and sensors placed on it (spec §2, §3, §5 uploads, §7 home/scene). */

let t: TestCtx;
let a: Records;
let b: Records;
withTwoCustomers((c) => ({ t, a, b } = c));
const req = requester(() => t);
const plan = async (label: string) => (await call(t, a.cookie, 'POST', '/service/scene/add', { label, funcType: 1 })).id as number;

describe('floor-plan picture (spec §5: JPG or PNG)', () => {
  it('stores a PNG on a floor-plan node and serves it back', async () => {
    const id = await plan('Ground floor');
    const r = await uploadAs(t, `/service/home/scene/plane/upload?sceneId=${id}`, a.cookie, 'floor.png', png(5000), 'image/png');
    expect(r.json().result).toEqual({ sceneId: id, size: 5000, mime: 'image/png' });
    const img = await t.app.inject({ method: 'GET', url: `/service/home/scene/plane/image?sceneId=${id}`, headers: { cookie: a.cookie } });
    expect(img.headers['content-type']).toBe('image/png');
    expect(img.rawPayload.length).toBe(5000);
    expect((await call(t, a.cookie, 'GET', `/service/home/scene/plane/info?sceneId=${id}`)).hasImage).toBe(true);
  });

  it.each([
    ['a GIF', 'floor.gif', 'Only JPG, JPEG or PNG pictures can be uploaded'],
    ['text named .png', 'floor.png', 'Only JPG, JPEG or PNG pictures can be uploaded'],
  ])('refuses %s', async (_l, name, msg) => {
    const id = await plan(`Refuse ${name}`);
    const data = name.endsWith('.gif') ? png(100) : Buffer.from('not a picture');
    const r = await uploadAs(t, `/service/home/scene/plane/upload?sceneId=${id}`, a.cookie, name, data);
    expect(r.json().state.msg).toBe(msg);
    expect((await call(t, a.cookie, 'GET', `/service/home/scene/plane/info?sceneId=${id}`)).hasImage).toBe(false);
  });

  it('refuses a picture on an organisation node and on another customer\'s plan', async () => {
    const r = await uploadAs(t, `/service/home/scene/plane/upload?sceneId=${a.sceneId}`, a.cookie, 'floor.png', png(100));
    expect(r.json().state.msg).toBe('This node is not a floor plan');
    const id = await plan('Private plan');
    const foreign = await uploadAs(t, `/service/home/scene/plane/upload?sceneId=${id}`, b.cookie, 'floor.png', png(100));
    expect(foreign.statusCode).toBe(404);
  });
});

describe('placing devices', () => {
  it('places a sensor, lists it with live values and leaves it out of the unplaced list', async () => {
    const id = await plan('Placed floor');
    expect((await call(t, a.cookie, 'GET', `/service/home/scene/position/device/unBind?sceneId=${id}`)).map((s: any) => s.devNo)).toContain(a.devNo);
    expect(await call(t, a.cookie, 'POST', '/service/home/scene/save/plane', { sceneId: id, positions: [{ sensorId: a.sensorId, x: 0.25, y: 0.75 }] })).toEqual({ placed: 1 });
    const placed = await call(t, a.cookie, 'GET', `/service/home/scene/position/device/bind/${id}`);
    expect(placed).toEqual([expect.objectContaining({ id: a.sensorId, devNo: a.devNo, x: 0.25, y: 0.75, temp: 5, tempState: 'normal', carrierName: 'AlphaFridge' })]);
    expect((await call(t, a.cookie, 'GET', `/service/home/scene/position/device/unBind?sceneId=${id}`)).map((s: any) => s.devNo)).not.toContain(a.devNo);
    // Placed on a second plan, it moves there: one place per sensor.
    const other = await plan('Other floor');
    await call(t, a.cookie, 'POST', '/service/home/scene/save/plane', { sceneId: other, positions: [{ sensorId: a.sensorId, x: 0.5, y: 0.5 }] });
    expect(await call(t, a.cookie, 'GET', `/service/home/scene/position/device/bind/${id}`)).toEqual([]);
  });

  it('refuses a position off the picture and another customer\'s sensor, and changes nothing', async () => {
    const id = await plan('Strict floor');
    await call(t, a.cookie, 'POST', '/service/home/scene/save/plane', { sceneId: id, positions: [{ sensorId: a.sensorId, x: 0.1, y: 0.1 }] });
    const off = await req(a.cookie, 'POST', '/service/home/scene/save/plane', { sceneId: id, positions: [{ sensorId: a.sensorId, x: 1.5, y: 0.1 }] });
    expect(off.status).toBe(400);
    expect(off.result.errors['positions.0.x']).toBe('A position must lie on the picture (0 to 1)');
    const foreign = await req(a.cookie, 'POST', '/service/home/scene/save/plane', { sceneId: id, positions: [{ sensorId: b.sensorId, x: 0.5, y: 0.5 }] });
    expect(foreign.status).toBe(404);
    expect((await call(t, a.cookie, 'GET', `/service/home/scene/position/device/bind/${id}`)).map((s: any) => s.x)).toEqual([0.1]);
    expect((await req(b.cookie, 'GET', `/service/home/scene/position/device/bind/${id}`)).status).toBe(404);
  });
});
