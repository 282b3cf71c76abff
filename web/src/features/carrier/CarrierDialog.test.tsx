// @vitest-environment jsdom
/**
 * The carrier dialog as a form dialog: filled in, the contract's range rules refuse a minimum
 * above the maximum, and its alarm rules a delay past a day and a margin of three decimals, with
 * their messages and send nothing; good values go as the add body to its route (the scene's
 * customer's sensors offered and bound, the default humidity margin), and the dialog closes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { carrierApi, contactApi, sceneApi, sensorApi, typeApi, type CarrierRow, alarmTriggerApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { dialog, fill, pick, save } from '../../ui/testing/dialog';
import { CarrierDialog } from './CarrierDialog';

const TREE = [
  { code: 'c1', scene_id: null, scope_id: 1, label: 'Demo', nodeType: 'customer', funcType: null, children: [{ code: 's4', scene_id: 4, scope_id: 1, label: 'Pharmacy', nodeType: 'scene', funcType: null, children: [] }] },
];
const answers = {
  [sceneApi.tree.path]: TREE,
  [typeApi.devices.path]: [],
  [typeApi.carriers.path]: [],
  [contactApi.page.path]: { total: 1, rows: [{ id: 21, name: 'Ann', phone: '', email: 'ann@x.org', customerId: 1 }] },
  [sensorApi.page.path]: { total: 1, rows: [{ id: 11, devNo: 'T1000001', type: 'thermohygro' }] },
  [carrierApi.add.path]: { id: 30 },
  [carrierApi.update.path]: { id: 30 },
  [alarmTriggerApi.options.path]: [{ id: 7, name: 'Day and night', channels: ['email', 'sms'] }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('CarrierDialog', () => {
  it('refuses a minimum above the maximum with the rule\'s message, then adds the carrier with the right body and closes', async () => {
    const calls = serverAnswers(answers);
    const onClose = vi.fn();
    const onDone = vi.fn();
    renderSignedIn(<CarrierDialog target="new" defaultSceneId={4} onClose={onClose} onDone={onDone} />);
    expect(await screen.findByText('Add a carrier')).toBeTruthy();

    fill('Name', ' Vaccine fridge ');
    // The scene's customer's free sensors are offered.
    await pick('Bound sensors', (t) => t.startsWith('T1000001'));
    await pick('Alarm contacts', (t) => t.startsWith('Ann'));
    fill('Temperature min', '9');
    fill('Temperature max', '2');
    save();
    expect(await screen.findByText('The minimum cannot be above the maximum')).toBeTruthy();
    expect(calls.some((c) => c.path === carrierApi.add.path)).toBe(false);

    fill('Temperature min', '2');
    fill('Temperature max', '8');
    // The alarm delay and margins are the trigger's now (/sysAlarm): none bound, the carrier takes the defaults.
    expect(screen.queryByText('Alarm delay')).toBeNull();
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const add = calls.find((c) => c.path === carrierApi.add.path)!;
    expect(add.method).toBe('POST');
    expect(add.body).toEqual({
      name: 'Vaccine fridge', type: 2, sceneId: 4, status: 1, mode: 'normal', loadType: 0, traceable: false, alarmOn: true, isKpi: true, sampleMode: 'latest', mktDh: 10000, triggerId: null,
      tempMin: 2, tempMax: 8, humMin: null, humMax: null, contactIds: [21], sensorIds: [11],
    });
    expect(calls.find((c) => c.path === sensorApi.page.path)?.query).toEqual({ iDisplayLength: '100', bound: 'false', customerId: '1' });
    expect(onDone).toHaveBeenCalled();
  });

  it('edits a carrier: its bound sensors chosen, the update sent with its id', async () => {
    const c = { id: 30, name: 'Fridge', type: 2, sceneId: 4, status: 1, mode: 'normal', loadType: 0, traceable: true, alarmOn: true, isKpi: false, sampleMode: 'avg', triggerId: 7, channels: ['email', 'sms'], tempMin: 2, tempMax: 8, humMin: null, humMax: null, alarmDelayS: 120, tempMargin: 0, humMargin: 2 } as unknown as CarrierRow;
    const calls = serverAnswers({ ...answers, [carrierApi.detail.path]: { ...c, contactIds: [21] } });
    const onClose = vi.fn();
    renderSignedIn(<CarrierDialog target={c} onClose={onClose} onDone={() => {}} />);
    await within(await screen.findByRole('dialog')).findByText(/^T1000001/);
    await within(dialog()).findByText(/^Ann/);
    fill('Temperature max', '6.5');
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((x) => x.path === carrierApi.update.path)).toMatchObject({
      method: 'PUT',
      body: { id: 30, name: 'Fridge', sceneId: 4, traceable: true, isKpi: false, sampleMode: 'avg', triggerId: 7, tempMin: 2, tempMax: 6.5, contactIds: [21], sensorIds: [11] },
    });
  });
});
