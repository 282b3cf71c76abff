// @vitest-environment jsdom
/** /device/sensor, /device/gas, /device/magnetism as configured on the list kit: columns, search fields, calls and row actions of each kind. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { gasApi, magnetApi, sensorApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { confirmDialog, headers, openRowMenu, searchLabels } from '../../ui/testing/listPage';
import SensorPage from './SensorPage';
import GasPage from './GasPage';
import MagnetPage from './MagnetPage';

const row = {
  id: 5, devNo: 'S0000005', type: 'TH', status: 1, lastTs: null, tz: '+08:00', lentUntil: null, customerId: 1, customerName: 'Demo', carrierId: 3, carrierName: 'Fridge 1', gatewayId: 2, gatewaySn: 'A1B2C3D4E5F6',
  calibExpiry: null, sampleInterval: 120, configStatus: 'configured', temp: 4.5, hum: 51.5, gas: null, gasCode: null, door: null,
};
const answers = (path: string, r: object = row) => ({ [path]: { total: 1, rows: [r] }, [sensorApi.del.path]: null, [gasApi.del.path]: null, [sensorApi.setStatus.path]: null, [gasApi.setStatus.path]: null });
const COMMON_TAIL = ['Monitoring point', 'Gateway', 'Calibration expires', 'Sample interval', 'Last heard of'];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SensorPage', () => {
  it('sensors: its columns and search fields, the kind sent with the call', async () => {
    const calls = serverAnswers(answers(sensorApi.page.path));
    renderSignedIn(<SensorPage />, { userType: 2 });
    await screen.findByText('S0000005');
    expect(headers()).toEqual(['Status', 'Device number', 'Use', 'Config', 'Type', 'Temperature', 'Humidity', ...COMMON_TAIL, 'Customer', 'Actions']);
    expect(searchLabels()).toEqual(['Device number', 'Type', 'Status', 'Binding']);
    for (const text of ['4.5 °C', '51.5 %RH', '120 s', 'Fridge 1']) expect(screen.getByText(text)).toBeTruthy();
    expect(calls[0]).toMatchObject({ path: sensorApi.page.path, query: { kind: 'sensor', iDisplayStart: '0', iDisplayLength: '15' } });
    expect(screen.getByRole('button', { name: 'Config log' })).toBeTruthy();
  });

  it('sensors: history, edit, configure, stop and delete to who may; stop confirms and calls setStatus', async () => {
    const calls = serverAnswers(answers(sensorApi.page.path));
    renderSignedIn(<SensorPage />, { funcs: ['newSensor', 'editSensor', 'removeSensor'] });
    expect(await screen.findByRole('button', { name: /Import/ })).toBeTruthy();
    const menu = await openRowMenu('S0000005');
    await waitFor(() => expect(menu.items()).toEqual(['History', 'Edit', 'Configure', 'Stop', 'Delete']));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stop' }));
    await screen.findAllByText('Stop S0000005?');
    await confirmDialog();
    await waitFor(() => expect(calls.find((c) => c.path === sensorApi.setStatus.path)?.body).toEqual({ ids: [5], stopped: true }));
  });

  it('gas: the gas and its concentration, searched by gas; the gas codes for its actions; no kind sent', async () => {
    const calls = serverAnswers(answers(gasApi.page.path, { ...row, type: 'gas', gas: 12.5, gasCode: null }));
    renderSignedIn(<GasPage />, { funcs: ['editGas', 'editSensor', 'removeSensor'] });
    await screen.findByText('S0000005');
    expect(headers()).toEqual(['', 'Status', 'Device number', 'Use', 'Gas', 'Concentration', ...COMMON_TAIL, 'Actions'].filter(Boolean));
    expect(searchLabels()).toEqual(['Device number', 'Gas', 'Status', 'Binding']);
    expect(screen.getByText('12.5 ppm')).toBeTruthy();
    expect(calls[0].query).toEqual({ iDisplayStart: '0', iDisplayLength: '15' });
    const menu = await openRowMenu('S0000005');
    await waitFor(() => expect(menu.items()).toEqual(['History', 'Edit', 'Stop']));
  });

  it('magnets: the door, no type or gas filter', async () => {
    serverAnswers(answers(magnetApi.page.path, { ...row, type: 'magnet', door: 1 }));
    renderSignedIn(<MagnetPage />);
    await screen.findByText('S0000005');
    expect(headers()).toEqual(['Status', 'Device number', 'Use', 'Door', ...COMMON_TAIL, 'Actions']);
    expect(searchLabels()).toEqual(['Device number', 'Status', 'Binding']);
    const menu = await openRowMenu('S0000005');
    await waitFor(() => expect(menu.items()).toEqual(['History']));
  });
});
