// @vitest-environment jsdom
/** /device/gateway as configured on the list kit: its columns, search fields, calls and row actions. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { gatewayApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { confirmDialog, headers, openRowMenu, searchLabels } from '../../ui/testing/listPage';
import GatewayPage from './GatewayPage';

const row = {
  id: 2, sn: 'A1B2C3D4E5F6', name: 'Ward gateway', nickname: '', type: 'gw2', status: 2, customerId: 1, customerName: 'Demo', carrierId: null, carrierName: null,
  lastSeenAt: null, sensorCount: 3, power: null, tz: '+08:00', lat: null, lng: null, ip: null, wanIp: null, tcp: null, lte: null, flight: null, createdAt: 0,
};
const answers = { [gatewayApi.page.path]: { total: 1, rows: [row] }, [gatewayApi.del.path]: null, [gatewayApi.setStatus.path]: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('GatewayPage', () => {
  it('shows its columns and cells, its search fields, and pages its call', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<GatewayPage />, { userType: -1 });
    await screen.findByText('A1B2C3D4E5F6');
    expect(headers()).toEqual(['Status', 'Serial number (MAC)', 'Name', 'Type', 'Monitoring point', 'Sensors', 'Power', 'Last heard of', 'Time zone', 'Customer', 'Actions']);
    expect(searchLabels()).toEqual(['Serial number (MAC)', 'Name', 'Status']);
    for (const text of ['Ward gateway', 'UTC+08:00', 'Stopped', 'Demo']) expect(screen.getByText(text)).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', path: gatewayApi.page.path, query: { iDisplayStart: '0', iDisplayLength: '15' } });
  });

  it('offers edit, new secret, enable and delete to who may; delete warns of its sensors and calls del', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<GatewayPage />, { funcs: ['newGateway', 'editGateway', 'removeGateway'] });
    expect(await screen.findByRole('button', { name: /Add/ })).toBeTruthy();
    const menu = await openRowMenu('A1B2C3D4E5F6');
    await waitFor(() => expect(menu.items()).toEqual(['Edit', 'New secret', 'Enable', 'Delete']));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await screen.findAllByText('Delete gateway A1B2C3D4E5F6?');
    await confirmDialog();
    await waitFor(() => expect(calls.find((c) => c.path === gatewayApi.del.path)?.query.ids).toBe('2'));
  });

  it('enables a stopped gateway after confirming', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<GatewayPage />, { funcs: ['editGateway'] });
    const menu = await openRowMenu('A1B2C3D4E5F6');
    await waitFor(() => expect(menu.items()).toEqual(['Edit', 'New secret', 'Enable']));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Enable' }));
    await screen.findAllByText('Enable A1B2C3D4E5F6 again?');
    await confirmDialog();
    await waitFor(() => expect(calls.find((c) => c.path === gatewayApi.setStatus.path)?.body).toEqual({ ids: [2], stopped: false }));
  });
});
