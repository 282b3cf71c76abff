// @vitest-environment jsdom
/**
 * The type catalogues on their shared table (/sys/carrierType, /sys/deviceType): each page's own
 * columns before the shared ones; an editType holder switches a type on at once and off only
 * after confirming; the edit dialog refuses a note over 250 characters and saves a valid one;
 * without editType the state is a tag and there is nothing to edit.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { typeApi } from '@coldwatch/contract';
import { dialog, fill, save } from '../../ui/testing/dialog';
import { headers } from '../../ui/testing/listPage';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import CarrierTypePage from './CarrierTypePage';
import DeviceTypePage from './DeviceTypePage';

const CARRIERS = [
  { type: 2, key: 'refrigerator', enabled: true, remark: '', inUse: 4, updatedAt: null },
  { type: 3, key: 'vehicle', enabled: false, remark: 'No trucks yet', inUse: 0, updatedAt: null },
];
const DEVICES = [
  { kind: 'sensor', code: 'zigbee_th', readings: ['temp', 'hum'], enabled: true, remark: '', inUse: 3, updatedAt: null },
  { kind: 'gateway', code: 'gw2', readings: [], enabled: true, remark: '', inUse: 1, updatedAt: null },
];
const answers = { [typeApi.carriers.path]: CARRIERS, [typeApi.devices.path]: DEVICES, [typeApi.updateCarrier.path]: { changed: true }, [typeApi.updateDevice.path]: { changed: true } };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const updates = (calls: { path: string; body: unknown }[], path: string) => calls.filter((c) => c.path === path).map((c) => c.body);

describe('type catalogues', () => {
  it('carrier types: the page columns, then the shared ones; switching on saves at once', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<CarrierTypePage />, { funcs: ['editType'] });
    fireEvent.click(await screen.findByRole('switch', { name: 'Vehicles' }));
    expect(headers()).toEqual(['Type', 'Code', 'In use', 'Offered', 'Note', 'Changed', 'Actions']);
    await waitFor(() => expect(updates(calls, typeApi.updateCarrier.path)).toEqual([{ type: 3, enabled: true, remark: 'No trucks yet' }]));
    expect(await screen.findByText('Saved')).toBeTruthy();
    // Read again after the save.
    await waitFor(() => expect(calls.filter((c) => c.path === typeApi.carriers.path).length).toBe(2));
  });

  it('switching a type off asks first: nothing is saved on Cancel, it is on Save', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<CarrierTypePage />, { funcs: ['editType'] });
    fireEvent.click(await screen.findByRole('switch', { name: 'Refrigerators' }));
    const ask = (await screen.findByText(/Switch off Refrigerators\? 4 existing keep it/)).closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(updates(calls, typeApi.updateCarrier.path)).toEqual([]);
    fireEvent.click(screen.getByRole('switch', { name: 'Refrigerators' }));
    fireEvent.click(within((await screen.findByText(/Switch off Refrigerators/)).closest('.ant-popover') as HTMLElement).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(updates(calls, typeApi.updateCarrier.path)).toEqual([{ type: 2, enabled: false, remark: '' }]));
  });

  it('device types: the edit dialog refuses a note over 250 characters and saves a valid one', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<DeviceTypePage />, { funcs: ['editType'] });
    expect(await screen.findByText('zigbee_th')).toBeTruthy();
    expect(headers()).toEqual(['Type', 'Code', 'Reports', 'In use', 'Offered', 'Note', 'Changed', 'Actions']);
    fireEvent.click(within(screen.getByText('zigbee_th').closest('tr')!).getByRole('button', { name: 'Edit' }));
    await screen.findByRole('dialog');
    fill('Note', 'x'.repeat(251));
    save();
    expect(await within(dialog()).findByText('At most 250 characters')).toBeTruthy();
    expect(updates(calls, typeApi.updateDevice.path)).toEqual([]);
    fill('Note', '  For the cold room  ');
    save();
    await waitFor(() => expect(updates(calls, typeApi.updateDevice.path)).toEqual([{ kind: 'sensor', code: 'zigbee_th', enabled: true, remark: 'For the cold room' }]));
  });

  it('without editType: the state as a tag, no switch and no actions', async () => {
    serverAnswers(answers);
    renderSignedIn(<CarrierTypePage />);
    expect(await screen.findByText('Switched off')).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(headers()).toEqual(['Type', 'Code', 'In use', 'Offered', 'Note', 'Changed']);
  });
});
