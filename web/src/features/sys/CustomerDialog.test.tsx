// @vitest-environment jsdom
/**
 * The customer dialog, a form in sections: a new customer's three sections (the administrator's
 * with its hint); missing and malformed fields refused, nothing sent; a valid customer added with
 * its administrator; an edit without the administrator's section, updated with its id; a partial
 * success (administrator not created) warned.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import { customerApi } from '@coldwatch/contract';
import { dialog, fill, save } from '../../ui/testing/dialog';
import { renderSignedIn, serverAnswers, type Call } from '../../ui/testing/render';
import { CustomerDialog } from './CustomerDialog';
import type { CustomerRow } from './customerTypes';

const ROW = { id: 3, name: 'River Clinic', shortName: '', code: 'RIVER', type: 'customer', orgType: '09', status: 1, area: '', areaCode: '', address: '', contact: '', phone: '', email: '', notifyEmail: true, notifySms: false, description: '' } as unknown as CustomerRow;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const bodies = (calls: Call[], path: string) => calls.filter((c) => c.path === path).map((c) => c.body);

describe('CustomerDialog', () => {
  it('a new customer: three sections; missing and malformed fields refused; a valid one added', async () => {
    const calls = serverAnswers({ [customerApi.add.path]: { id: 9, code: 200000 } });
    const done = vi.fn();
    renderSignedIn(<CustomerDialog target="new" onClose={() => {}} onDone={done} />);
    await screen.findByRole('dialog');
    for (const title of ['Customer', 'Contact and notifications', 'Administrator account']) expect(within(dialog()).getByText(title, { selector: '.ant-divider-inner-text, .ant-divider-inner-text *' })).toBeTruthy();
    expect(within(dialog()).getByText(/the administrator's mobile and e-mail are the customer's phone and e-mail/)).toBeTruthy();
    fill('Code', 'RI VER');
    save();
    expect((await within(dialog()).findAllByText('Required')).length).toBeGreaterThanOrEqual(3);
    expect(within(dialog()).getByText('Invalid code: letters and digits only, at most 20')).toBeTruthy();
    expect(bodies(calls, customerApi.add.path)).toEqual([]);
    fill('Name', ' Lake Hospital ');
    fill('Code', 'LAKE');
    fill('Account', 'lake_admin');
    fill('Password', 'secret_123');
    save();
    await waitFor(() => expect(bodies(calls, customerApi.add.path)).toHaveLength(1));
    expect(bodies(calls, customerApi.add.path)[0]).toMatchObject({ name: 'Lake Hospital', code: 'LAKE', orgType: '09', type: 'customer', account: 'lake_admin', password: 'secret_123', notifyEmail: true, notifySms: false });
    expect(await screen.findByText('Customer added')).toBeTruthy();
    expect(done).toHaveBeenCalled();
  });

  it('warns of a partial success', async () => {
    serverAnswers({ [customerApi.add.path]: { id: 9, code: 202 } });
    renderSignedIn(<CustomerDialog target="new" onClose={() => {}} onDone={() => {}} />);
    await screen.findByRole('dialog');
    fill('Name', 'Lake Hospital');
    fill('Code', 'LAKE');
    fill('Account', 'lake_admin');
    fill('Password', 'secret_123');
    save();
    expect(await screen.findByText('The customer and roles were created, but the administrator failed')).toBeTruthy();
  });

  it('an edit: no administrator section; updated with its id', async () => {
    const calls = serverAnswers({ [customerApi.detail.path]: ROW, [customerApi.update.path]: null });
    renderSignedIn(<CustomerDialog target={ROW} onClose={() => {}} onDone={() => {}} />);
    await screen.findByRole('dialog');
    await waitFor(() => expect((within(dialog()).getByLabelText('Name') as HTMLInputElement).value).toBe('River Clinic'));
    expect(within(dialog()).queryByText('Administrator account')).toBeNull();
    save();
    await waitFor(() => expect(bodies(calls, customerApi.update.path)).toHaveLength(1));
    expect(bodies(calls, customerApi.update.path)[0]).toMatchObject({ id: 3, name: 'River Clinic', code: 'RIVER' });
  });
});
