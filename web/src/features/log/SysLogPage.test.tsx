// @vitest-environment jsdom
/**
 * /noti/sysLog and /noti/alarmLog on the list kit: their columns (the customer to a platform
 * user), their search fields in the order they had, a filter sent, the log's reload button.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { alarmLogApi, syslogApi } from '@coldwatch/contract';
import { headers, searchLabels } from '../../ui/testing/listPage';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import AlarmLogPage from '../alarmlog/AlarmLogPage';
import SysLogPage from './SysLogPage';

const log = { id: 1, time: 0, module: 'contact', operator: 'alpha', method: 'add', content: 'Ann Lee', params: { name: 'Ann Lee' }, result: 1, ip: '10.0.0.1', customerId: 1, customerName: 'Demo' };
const alarm = { id: 2, time: 0, carrierId: 3, carrierName: 'Fridge 1', carrierType: 2, sceneLabel: 'Pharmacy', alarmOn: false, operator: 'alpha', customerId: 1, customerName: 'Demo' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const form = () => within(document.querySelector('form')!);

describe('log pages', () => {
  it('system log: columns, search fields, a filter sent, reload', async () => {
    const calls = serverAnswers({ [syslogApi.page.path]: { total: 1, rows: [log] }, [syslogApi.modules.path]: ['contact'] });
    renderSignedIn(<SysLogPage />, { userType: 2 });
    await screen.findByText('alpha');
    expect(headers()).toEqual(['Time', 'Customer', 'Module', 'Operator', 'IP address', 'Method', 'Content', 'Parameters', 'Result']);
    expect(searchLabels()).toEqual(['Module', 'Operator', 'Method', 'Result', 'Content', 'Time']);
    fireEvent.change(form().getByLabelText('Operator'), { target: { value: 'alpha' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(calls.filter((c) => c.path === syslogApi.page.path).at(-1)!.query).toEqual({ operator: 'alpha', iDisplayStart: '0', iDisplayLength: '15' }));
    const before = calls.filter((c) => c.path === syslogApi.page.path).length;
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() => expect(calls.filter((c) => c.path === syslogApi.page.path).length).toBe(before + 1));
  });

  it('alarm switch log: columns, search fields, a filter sent', async () => {
    const calls = serverAnswers({ [alarmLogApi.page.path]: { total: 1, rows: [alarm] } });
    renderSignedIn(<AlarmLogPage />);
    await screen.findByText('Fridge 1');
    expect(headers()).toEqual(['Time', 'Carrier', 'Type', 'Scene', 'Switch', 'Reason', 'Operator']);
    expect(searchLabels()).toEqual(['Carrier', 'Operator', 'Switch', 'Time']);
    fireEvent.change(form().getByLabelText('Carrier'), { target: { value: 'Fridge' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(calls.at(-1)!.query).toEqual({ carrierName: 'Fridge', iDisplayStart: '0', iDisplayLength: '15' }));
  });
});
