// @vitest-environment jsdom
/**
 * The role dialog: filled from the role's detail (its functions checked in the permission tree),
 * a required name refused with its message, and the update body (resources and functions from the
 * tree, proxy customers of a proxy role) sent to its route; the dialog closes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { customerApi, roleApi, sceneApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { RoleDialog } from './RoleDialog';
import type { RoleRow } from './roleTypes';

const role = { id: 5, customerId: 1, customerName: 'Demo', name: 'Proxy', type: 'normal', level: -1, status: 1, delegable: true, description: 'Governs others', isDefault: false } as unknown as RoleRow;
const answers = {
  [customerApi.page.path]: { total: 2, rows: [{ id: 1, name: 'Demo' }, { id: 3, name: 'Harbor Clinic' }] },
  [roleApi.roleType.path]: { types: ['normal'], levels: [-1, 0, 1] },
  [roleApi.permissionTree.path]: [{ id: 10, code: 'monitor', name: 'Monitor', funcs: ['viewCarrier', 'editCarrier'], children: [] }],
  [sceneApi.tree.path]: [],
  [roleApi.detail.path]: { ...role, proxyCustomerIds: [3], sceneIds: [], resourceIds: [10], funcs: ['viewCarrier'] },
  [roleApi.update.path]: { id: 5 },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('RoleDialog', () => {
  it('edits a role from its detail: refuses an empty name, then sends the update body and closes', async () => {
    const calls = serverAnswers(answers);
    const onClose = vi.fn();
    const onDone = vi.fn();
    renderSignedIn(<RoleDialog target={role} onClose={onClose} onDone={onDone} />, { userType: 2, funcs: ['viewCustomer'] });
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByText('Harbor Clinic');
    const name = within(dialog).getByLabelText('Role name');
    fireEvent.change(name, { target: { value: '  ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeTruthy();
    expect(calls.some((c) => c.path === roleApi.update.path)).toBe(false);

    fireEvent.change(name, { target: { value: ' Proxy desk ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const update = calls.find((c) => c.path === roleApi.update.path)!;
    expect(update.method).toBe('PUT');
    expect(update.body).toEqual({
      id: 5, name: 'Proxy desk', status: 1, level: -1, proxyCustomerIds: [3], resourceIds: [10], funcs: ['viewCarrier'], sceneIds: [], delegable: true, isDefault: false, description: 'Governs others',
    });
    expect(onDone).toHaveBeenCalled();
  });
});
