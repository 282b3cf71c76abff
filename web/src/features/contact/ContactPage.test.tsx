// @vitest-environment jsdom
/**
 * /arch/contacts on the list kit: its columns (the customer to a platform user), search fields and
 * calls; edit and delete links to who may, delete after confirming; the add dialog refuses a
 * malformed phone and adds a valid contact.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { contactApi } from '@coldwatch/contract';
import { dialog, fill, save } from '../../ui/testing/dialog';
import { headers, rowOf, searchLabels } from '../../ui/testing/listPage';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import ContactPage from './ContactPage';

const row = { id: 4, name: 'Ann Lee', gender: 0, phone: '13800000000', email: '', alarmLevel: 2, groupName: 'Night', locale: null, carrierCount: 3, customerId: 1, customerName: 'Demo', createdAt: 0 };
const answers = { [contactApi.page.path]: { total: 1, rows: [row] }, [contactApi.del.path]: null, [contactApi.add.path]: { id: 5 } };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const links = async () =>
  within(await rowOf('Ann Lee'))
    .queryAllByRole('button')
    .map((b) => b.textContent);

describe('ContactPage', () => {
  it('shows its columns (the customer to a platform user) and search fields, and searches', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<ContactPage />, { userType: 2 });
    await screen.findByText('Ann Lee');
    expect(headers()).toEqual(['Name', 'Gender', 'Phone', 'E-mail', 'Alarm level', 'Group', 'Carriers', 'Customer', 'Actions']);
    expect(searchLabels()).toEqual(['Name', 'Phone', 'Group']);
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
    fireEvent.change(within(document.querySelector('form')!).getByLabelText('Group'), { target: { value: 'Night' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(calls.at(-1)!.query).toEqual({ groupName: 'Night', iDisplayStart: '0', iDisplayLength: '15' }));
  });

  it('offers edit and delete to who may; delete asks first, then deletes', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<ContactPage />, { funcs: ['editContact', 'removeContact'] });
    expect(await links()).toEqual(['Edit', 'Delete']);
    expect(headers()).not.toContain('Customer');
    fireEvent.click(within(await rowOf('Ann Lee')).getByRole('button', { name: 'Delete' }));
    const ask = (await screen.findByText('Delete "Ann Lee"? It leaves the notice lists of 3 carriers.')).closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(ask).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(calls.find((c) => c.path === contactApi.del.path)?.query).toEqual({ ids: '4' }));
  });

  it('offers no link without the function codes', async () => {
    serverAnswers(answers);
    renderSignedIn(<ContactPage />, { funcs: ['editContact'] });
    expect(await links()).toEqual(['Edit']);
  });

  it('adds a contact: a malformed phone is refused, a valid contact is sent', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<ContactPage />, { funcs: ['newContact'] });
    fireEvent.click(await screen.findByRole('button', { name: /Add/ }));
    await screen.findByRole('dialog');
    fill('Name', ' Bo Chen ');
    fill('Phone', '12ab');
    save();
    expect(await within(dialog()).findByText('Phone: 11 digits, 7-8 digits, or area code-number')).toBeTruthy();
    expect(calls.some((c) => c.path === contactApi.add.path)).toBe(false);
    fill('Phone', '13900000000');
    save();
    await waitFor(() =>
      expect(calls.find((c) => c.path === contactApi.add.path)?.body).toEqual({ name: 'Bo Chen', gender: 1, phone: '13900000000', email: '', alarmLevel: 1, groupName: '', locale: null }),
    );
    expect(await screen.findByText('Contact added')).toBeTruthy();
  });
});
