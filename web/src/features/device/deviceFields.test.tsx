// @vitest-environment jsdom
/**
 * The device dialogs' shared sections, in the smart base and relay dialogs: a number that is
 * missing or not letters and digits is refused, as is a missing gateway; a valid device is added
 * with the gateway and carrier picked; an edited one shows its own gateway and carrier and is
 * updated with its id; the relay's pickers carry its help and search gateways by serial number.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { baseApi, carrierApi, gatewayApi, relayApi, type BaseRow } from '@coldwatch/contract';
import { dialog, fill, pick } from '../../ui/testing/dialog';
import { renderSignedIn, serverAnswers, type Call } from '../../ui/testing/render';
import { BaseDialog } from '../base/BaseDialog';
import { RelayDialog } from '../relay/RelayDialog';

const answers = {
  [gatewayApi.page.path]: (c: Call) => ({ total: 1, rows: [{ id: 2, sn: 'A1B2C3D4E5F6', name: 'Ward' }].filter((g) => !c.query.sn || g.sn.includes(c.query.sn)) }),
  [carrierApi.page.path]: { total: 1, rows: [{ id: 5, name: 'Fridge 1', sceneLabel: 'Pharmacy' }] },
  [baseApi.add.path]: { id: 7 },
  [baseApi.update.path]: null,
};
const BASE = { id: 7, devNo: 'B0000007', name: 'Fridge base', type: 'thermohygro', carrierId: 8, carrierName: 'Freezer', gatewayId: 9, gatewaySn: 'A1B2C3D4E5F9', gatewayName: 'Old', description: '', status: 1, customerId: 1, customerName: 'Demo', tz: '+08:00', createdAt: 0 } as BaseRow;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const ok = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'OK' }));
const bodies = (calls: Call[], path: string) => calls.filter((c) => c.path === path).map((c) => c.body);

describe('device dialog sections', () => {
  it('refuses a missing or malformed number and a missing gateway; adds a valid device', async () => {
    const calls = serverAnswers(answers);
    const done = vi.fn();
    renderSignedIn(<BaseDialog target="new" onClose={() => {}} onDone={done} />);
    await screen.findByRole('dialog');
    fill('Name', 'Ward base');
    ok();
    expect((await within(dialog()).findAllByText('Required')).length).toBe(2);
    fill('Number', 'B-07');
    ok();
    expect(await within(dialog()).findByText('Letters and digits, at most 30')).toBeTruthy();
    expect(bodies(calls, baseApi.add.path)).toEqual([]);
    fill('Number', 'B0000008');
    await pick('Gateway', 'A1B2C3D4E5F6 · Ward');
    await pick('Monitoring point', 'Fridge 1 · Pharmacy');
    ok();
    await waitFor(() => expect(bodies(calls, baseApi.add.path)).toEqual([{ devNo: 'B0000008', name: 'Ward base', type: 'thermohygro', gatewayId: 2, carrierId: 5, description: '', tz: '+08:00' }]));
    expect(done).toHaveBeenCalled();
  });

  it("an edited device: its own gateway and carrier shown, updated with its id", async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<BaseDialog target={BASE} onClose={() => {}} onDone={() => {}} />);
    expect(await within(dialog()).findByText('A1B2C3D4E5F9 · Old')).toBeTruthy();
    expect(within(dialog()).getByText('Freezer')).toBeTruthy();
    ok();
    await waitFor(() => expect(bodies(calls, baseApi.update.path)).toEqual([{ devNo: 'B0000007', name: 'Fridge base', type: 'thermohygro', gatewayId: 9, carrierId: 8, description: '', tz: '+08:00', id: 7 }]));
  });

  it("the relay's: the pickers' help, gateways searched by serial number", async () => {
    const calls = serverAnswers({ ...answers, [relayApi.add.path]: { id: 3 } });
    renderSignedIn(<RelayDialog target="new" onClose={() => {}} onDone={() => {}} />);
    await screen.findByRole('dialog');
    expect(within(dialog()).getByText('The gateway the relay hangs on: its outputs are sent through it.')).toBeTruthy();
    expect(within(dialog()).getByText('The monitoring point whose condition intelligent switching follows.')).toBeTruthy();
    const input = within(dialog()).getByLabelText('Gateway');
    fireEvent.mouseDown(input.closest('.ant-select')!);
    fireEvent.change(input, { target: { value: 'E5F6' } });
    await waitFor(() => expect(calls.some((c) => c.path === gatewayApi.page.path && c.query.sn === 'E5F6')).toBe(true));
  });
});
