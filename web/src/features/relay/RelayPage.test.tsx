// @vitest-environment jsdom
/** /device/relay as configured on the list kit: its columns, search fields, selection, calls and row actions. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { relayApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { confirmDialog, headers, openRowMenu, rowOf, searchLabels } from '../../ui/testing/listPage';
import RelayPage from './RelayPage';

const row = {
  id: 7, devNo: 'R0000007', name: 'Cold room fan', type: 'relay1', mac: '', reportInterval: 60, output: true, pending: false,
  switch: { mode: 'manual', turnOn: true, conditionReached: null, endsAt: null },
  carrierId: 3, carrierName: 'Cold room', gatewayId: 2, gatewaySn: 'A1B2C3D4E5F6', gatewayName: 'GW', status: 1, customerId: 1, customerName: 'Demo', tz: '+08:00', createdAt: 0, outputAt: null,
};
const answers = { [relayApi.page.path]: { total: 1, rows: [row] }, [relayApi.switch.path]: { switched: 1, published: 1 }, [relayApi.del.path]: null, [relayApi.setStatus.path]: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RelayPage', () => {
  it('shows its columns and cells, its search fields, and pages its call', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<RelayPage />);
    await screen.findByText('R0000007');
    expect(headers()).toEqual(['Status', 'Number', 'Name', 'Output', 'Current switch', 'Monitoring point', 'Gateway', 'MAC', 'Reporting interval', 'Actions']);
    expect(searchLabels()).toEqual(['Number', 'Name', 'Status']);
    for (const text of ['Cold room fan', 'Cold room', '60 s', '--']) expect(screen.getByText(text)).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', path: relayApi.page.path, query: { iDisplayStart: '0', iDisplayLength: '15' } });
    // Without editRelay or removeRelay: no selection, no batch switch, and the row's switch is disabled.
    expect(document.querySelector('.ant-table-selection-column')).toBeNull();
    expect(screen.queryByRole('button', { name: /poweroff/ })).toBeNull();
    expect(within(await rowOf('R0000007')).getAllByRole('button')[0].hasAttribute('disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Switching log' })).toBeTruthy();
  });

  it('offers cancel, edit, stop and delete to who may; cancel confirms and calls switch', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<RelayPage />, { funcs: ['newRelay', 'editRelay', 'removeRelay'] });
    expect(await screen.findByRole('button', { name: /Add/ })).toBeTruthy();
    expect(document.querySelector('.ant-table-selection-column')).toBeTruthy();
    const menu = await openRowMenu('R0000007');
    await waitFor(() => expect(menu.items()).toEqual(['Detail', 'Cancel switch', 'Edit', 'Stop', 'Delete']));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Cancel switch' }));
    await screen.findAllByText('Cancel the switch of Cold room fan?');
    await confirmDialog();
    await waitFor(() => expect(calls.find((c) => c.path === relayApi.switch.path)?.body).toEqual({ ids: [7], mode: 'cancel', cancelTime: null }));
  });
});
