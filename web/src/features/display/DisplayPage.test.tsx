// @vitest-environment jsdom
/** /device/displayscreen as configured on the list kit: its columns, search fields, calls and row actions. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { displayApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { confirmDialog, headers, openRowMenu, searchLabels } from '../../ui/testing/listPage';
import DisplayPage from './DisplayPage';

const row = { id: 7, devNo: 'D0000007', name: 'Hall screen', nickname: 'hall', type: 'display1', alarmOn: true, alarmDuration: 60, alarmInterval: 300, heartbeatInterval: 90, carrierId: null, carrierName: null, gatewayId: 2, gatewaySn: 'A1B2C3D4E5F6', gatewayName: 'GW', status: 1, customerId: 1, customerName: 'Demo', tz: '+08:00', createdAt: 0 };
const answers = { [displayApi.page.path]: { total: 1, rows: [row] }, [displayApi.del.path]: null, [displayApi.setStatus.path]: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('DisplayPage', () => {
  it('shows its columns and cells, its search fields, and pages its call', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<DisplayPage />, { userType: 3 });
    await screen.findByText('D0000007');
    expect(headers()).toEqual(['Status', 'Number', 'Name', 'Monitoring point', 'Alarm', 'Alarm duration', 'Alarm interval', 'Heartbeat interval', 'Gateway', 'Customer', 'Actions']);
    expect(searchLabels()).toEqual(['Number', 'Name', 'Status']);
    for (const text of ['Hall screen (hall)', 'Not bound', 'On', '60 s', '300 s', '90 s', 'A1B2C3D4E5F6', 'Demo']) expect(screen.getByText(text)).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', path: displayApi.page.path, query: { iDisplayStart: '0', iDisplayLength: '15' } });
  });

  it('offers edit, stop and delete to who may; stop confirms and calls setStatus', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<DisplayPage />, { funcs: ['newDisplay', 'editDisplay', 'removeDisplay'] });
    expect(await screen.findByRole('button', { name: /Add/ })).toBeTruthy();
    const menu = await openRowMenu('D0000007');
    await waitFor(() => expect(menu.items()).toEqual(['Edit', 'Stop', 'Delete']));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Stop' }));
    await screen.findAllByText('Stop Hall screen?');
    await confirmDialog();
    await waitFor(() => expect(calls.find((c) => c.path === displayApi.setStatus.path)?.body).toEqual({ ids: [7], stopped: true }));
  });

  it('offers only what the codes held allow', async () => {
    serverAnswers(answers);
    renderSignedIn(<DisplayPage />, { funcs: ['removeDisplay'] });
    const menu = await openRowMenu('D0000007');
    await waitFor(() => expect(menu.items()).toEqual(['Delete']));
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });
});
