// @vitest-environment jsdom
/** /device/base as configured on the list kit: its columns, search fields, calls and row actions. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { baseApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { confirmDialog, headers, openRowMenu, searchLabels } from '../../ui/testing/listPage';
import BasePage from './BasePage';

const row = { id: 7, devNo: 'B0000007', name: 'Fridge base', type: 'thermohygro', carrierId: 3, carrierName: 'Fridge 1', gatewayId: 2, gatewaySn: 'A1B2C3D4E5F6', gatewayName: 'GW', description: '', status: 1, customerId: 1, customerName: 'Demo', tz: '+08:00', createdAt: 0 };
const answers = { [baseApi.page.path]: { total: 1, rows: [row] }, [baseApi.del.path]: null, [baseApi.setStatus.path]: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('BasePage', () => {
  it('shows its columns (the customer to a platform user), its search fields, and pages its call', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<BasePage />, { userType: 2 });
    await screen.findByText('B0000007');
    expect(headers()).toEqual(['Status', 'Number', 'Name', 'Type', 'Monitoring point', 'Gateway', 'Description', 'Customer', 'Actions']);
    expect(searchLabels()).toEqual(['Number', 'Name', 'Type', 'Status']);
    expect(screen.getByText('Fridge 1')).toBeTruthy();
    expect(calls[0]).toMatchObject({ method: 'GET', path: baseApi.page.path, query: { iDisplayStart: '0', iDisplayLength: '15' } });
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });

  it('offers edit, stop and delete to who may; delete confirms and calls del', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<BasePage />, { funcs: ['newPlinth', 'editPlinth', 'removePlinth'] });
    expect(await screen.findByRole('button', { name: /Add/ })).toBeTruthy();
    expect(headers()).not.toContain('Customer');
    const menu = await openRowMenu('B0000007');
    await waitFor(() => expect(menu.items()).toEqual(['Edit', 'Stop', 'Delete']));
    fireEvent.click(screen.getByRole('menuitem', { name: 'Delete' }));
    await screen.findAllByText('Delete Fridge base?');
    await confirmDialog();
    await waitFor(() => expect(calls.some((c) => c.path === baseApi.del.path && c.query.ids === '7')).toBe(true));
  });

  it('offers nothing in the menu without the function codes', async () => {
    serverAnswers(answers);
    renderSignedIn(<BasePage />);
    const menu = await openRowMenu('B0000007');
    expect(menu.items()).toEqual([]);
  });
});
