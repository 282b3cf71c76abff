// @vitest-environment jsdom
/** /arch/task: the monitor tasks' columns and texts, editing a task, stopping, starting and restoring the default; only for who may. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { monitorTaskApi } from '@coldwatch/contract';
import zh from '../../locales/zh-CN/monitorTask.json';
import en from '../../locales/en-US/monitorTask.json';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { headers, rowOf } from '../../ui/testing/listPage';
import { dialog, fill, pick, save } from '../../ui/testing/dialog';
import MonitorTaskPage from './MonitorTaskPage';

const base = { customerId: 3, customerName: 'Demo Hospital', devices: 0, updatedAt: null, updatedBy: null };
const rows = [
  { ...base, id: null, family: 'zbp', intervalValue: 10, intervalUnit: 'minute', status: 1, inherited: true, devices: 11 },
  { ...base, id: 7, family: 'gateway', intervalValue: 2, intervalUnit: 'hour', status: 0, inherited: false, devices: 1, updatedAt: Date.UTC(2026, 0, 5, 2, 30), updatedBy: 'Li Na' },
];
const answers = { [monitorTaskApi.page.path]: { total: 2, rows }, [monitorTaskApi.update.path]: { id: 8 }, [monitorTaskApi.del.path]: { deleted: 1 } };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const link = async (rowText: string, name: string) => within(await rowOf(rowText)).getByRole('button', { name });

describe('MonitorTaskPage', () => {
  it('shows each task with its interval, status, setting, devices and change, and pages its call', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<MonitorTaskPage />, { userType: 3, funcs: ['viewDetectionTask'] });
    await screen.findByText('Sensor offline detection (ZBP)');
    expect(headers()).toEqual(['Customer', 'Task', 'Offline after', 'Status', 'Setting', 'Devices', 'Changed', 'Actions']);
    const cells = async (text: string) => [...(await rowOf(text)).querySelectorAll('td')].map((c) => c.textContent);
    expect(await cells('10 minutes')).toEqual(['Demo Hospital', 'Sensor offline detection (ZBP)ZigBee sensors, gas detectors and door magnets', '10 minutes', 'Running', 'Platform default', '11', '--', '']);
    expect(await cells('2 hours')).toEqual(['Demo Hospital', 'Gateway offline detectionGateways, by their heartbeat and data', '2 hours', 'Stopped', 'Own setting', '1', '2026-01-05 10:30, Li Na', '']);
    expect(calls[0]).toMatchObject({ method: 'GET', path: monitorTaskApi.page.path, query: { iDisplayStart: '0', iDisplayLength: '15' } });
    // Only viewing: no action.
    expect(within(await rowOf('10 minutes')).queryByRole('button')).toBeNull();
  });

  it("edits a task: the contract's rule under the field, then the body with the customer and family", async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<MonitorTaskPage />, { funcs: ['viewDetectionTask', 'editDetectionTask'] });
    fireEvent.click(await link('10 minutes', 'Edit'));
    await waitFor(() => expect(within(dialog()).getByText('The platform default is 10 minutes.')).toBeTruthy());
    fill('Offline after', '31');
    await pick('Unit', 'Days');
    save();
    expect(await within(dialog()).findByText(en.rule.interval)).toBeTruthy();
    expect(calls.some((c) => c.path === monitorTaskApi.update.path)).toBe(false);
    fill('Offline after', '2');
    save();
    await waitFor(() => expect(calls.find((c) => c.path === monitorTaskApi.update.path)?.body).toEqual({ customerId: 3, family: 'zbp', intervalValue: 2, intervalUnit: 'day', status: 1 }));
  });

  it('stops a running task after asking, starts a stopped one, restores an own setting to the default', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<MonitorTaskPage />, { funcs: ['viewDetectionTask', 'editDetectionTask'] });
    expect(within(await rowOf('10 minutes')).queryByRole('button', { name: 'Restore default' })).toBeNull();
    fireEvent.click(await link('10 minutes', 'Stop'));
    fireEvent.click(await screen.findByRole('button', { name: 'OK' }));
    await waitFor(() => expect(calls.filter((c) => c.path === monitorTaskApi.update.path).map((c) => c.body)).toEqual([{ customerId: 3, family: 'zbp', intervalValue: 10, intervalUnit: 'minute', status: 0 }]));
    fireEvent.click(await link('2 hours', 'Start'));
    await waitFor(() => expect(calls.filter((c) => c.path === monitorTaskApi.update.path).at(-1)?.body).toMatchObject({ family: 'gateway', intervalValue: 2, intervalUnit: 'hour', status: 1 }));
    fireEvent.click(await link('2 hours', 'Restore default'));
    const ok = await screen.findAllByRole('button', { name: 'OK' });
    fireEvent.click(ok.at(-1)!);
    await waitFor(() => expect(calls.find((c) => c.path === monitorTaskApi.del.path)).toMatchObject({ method: 'DELETE', query: { ids: '7' } }));
  });

  it('has every text in both languages', () => {
    const keys = (o: unknown, p = ''): string[] => (o && typeof o === 'object' ? Object.entries(o).flatMap(([k, v]) => keys(v, p ? `${p}.${k}` : k)) : [p]);
    expect(keys(zh).sort()).toEqual(keys(en).sort());
  });
});
