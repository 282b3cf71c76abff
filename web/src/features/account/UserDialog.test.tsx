// @vitest-environment jsdom
/**
 * The user dialog as a form dialog: filled in, the contract's rules refuse a bad account or
 * mobile with their messages and send nothing; good values go as the add or update body to
 * their route, and the dialog closes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { customerApi, roleApi, sceneApi, userApi } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { dialog, fill, pick, save } from '../../ui/testing/dialog';
import { UserDialog } from './UserDialog';
import type { UserRow } from './userTypes';

const ROLES = [
  { id: 5, name: 'Monitor only', type: 'normal', level: 0, status: 1, isDefault: false },
  { id: 6, name: 'Stopped role', type: 'normal', level: 0, status: 0, isDefault: false },
];
const answers = {
  [customerApi.page.path]: { total: 2, rows: [{ id: 1, name: 'Demo' }, { id: 3, name: 'Harbor Clinic' }] },
  [roleApi.page.path]: { total: 2, rows: ROLES },
  [sceneApi.tree.path]: [],
  [userApi.add.path]: { id: 9, password: 'Tmp12345' },
  [userApi.update.path]: null,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UserDialog', () => {
  it('refuses a bad account and mobile with the rules\' messages, then adds the user with the right body and closes', async () => {
    const calls = serverAnswers(answers);
    const onClose = vi.fn();
    const onDone = vi.fn();
    // A platform user (type 2) chooses the customer; its roles are then offered.
    renderSignedIn(<UserDialog target="new" onClose={onClose} onDone={onDone} />, { userType: 2, funcs: ['viewCustomer'] });
    expect(await screen.findByText('New user')).toBeTruthy();
    await pick('Customer', 'Harbor Clinic');

    fill('Account', 'x');
    fill('Name', ' Harbor Watch ');
    fill('Mobile', '12');
    await pick('Roles', 'Monitor only');
    save();
    expect(await screen.findByText('Letters, digits and _ . @ -, 2 to 50', { selector: '.ant-form-item-explain-error' })).toBeTruthy();
    expect(await screen.findByText('11 digits, 7-8 digits, or area code-number')).toBeTruthy();
    expect(calls.some((c) => c.path === userApi.add.path)).toBe(false);
    expect(onClose).not.toHaveBeenCalled();

    fill('Account', 'harbor.watch');
    fill('Mobile', '13800000001');
    fill('Initial password', 'abc123');
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const add = calls.find((c) => c.path === userApi.add.path)!;
    expect(add.method).toBe('POST');
    expect(add.body).toEqual({
      account: 'harbor.watch', name: 'Harbor Watch', gender: 1, status: 1, roleIds: [5], mobile: '13800000001', email: '', remarks: '', sceneIds: [], proxyCustomerId: null, customerId: 3, password: 'abc123',
    });
    expect(onDone).toHaveBeenCalledWith({ account: 'harbor.watch', password: 'Tmp12345' });
    expect(calls.find((c) => c.path === roleApi.page.path && c.query.customerId)?.query).toEqual({ iDisplayStart: '0', iDisplayLength: '100', customerId: '3' });
  });

  it('edits a user: filled from its detail, saved to update with its id', async () => {
    const u = {
      id: 4, customerId: 1, customerName: 'Demo', account: 'nurse', name: 'Nurse', gender: 0, status: 1, roles: [{ id: 5, name: 'Monitor only' }], mobile: '13800000002', email: 'n@x.org',
      remarks: '', sceneIds: [], proxyCustomerId: null, defaultAccount: false,
    } as unknown as UserRow;
    const calls = serverAnswers({ ...answers, [userApi.detail.path]: { ...u, email: 'nurse@x.org' } });
    const onClose = vi.fn();
    renderSignedIn(<UserDialog target={u} onClose={onClose} onDone={() => {}} />);
    expect(await screen.findByText('Edit user')).toBeTruthy();
    await waitFor(() => expect((within(dialog()).getByLabelText('E-mail') as HTMLInputElement).value).toBe('nurse@x.org'));
    expect(within(dialog()).queryByLabelText('Initial password')).toBeNull();

    fill('E-mail', 'not-an-address');
    save();
    expect(await screen.findByText('Invalid e-mail address')).toBeTruthy();
    fill('E-mail', 'nurse@example.org');
    save();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const update = calls.find((c) => c.path === userApi.update.path)!;
    expect(update.method).toBe('PUT');
    expect(update.body).toEqual({
      id: 4, account: 'nurse', name: 'Nurse', gender: 0, status: 1, roleIds: [5], mobile: '13800000002', email: 'nurse@example.org', remarks: '', sceneIds: [], proxyCustomerId: null,
    });
  });
});
