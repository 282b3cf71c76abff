// @vitest-environment jsdom
/**
 * /noti/notification on the list kit: the columns of spec §3's notice log (the customer to a
 * platform user), the search fields, a filter sent, and the retry offered only on a failed
 * notice to a caller who may edit the log.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { noticeApi } from '@coldwatch/contract';
import { headers, searchLabels } from '../../ui/testing/listPage';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import NoticeLogPage from './NoticeLogPage';

const base = { customerId: 1, customerName: 'Demo Hospital', exceptionId: 7, type: 'alarm', subject: '', attempts: 1, sendTime: null, nextAttemptAt: null, createdAt: 0 };
const rows = [
  { ...base, id: 1, channel: 'email', recipient: 'ops@demo.test', subject: '[Coldwatch alarm] Fridge 1', content: 'Fridge 1 is too warm', status: 1, result: '250 OK', sendTime: 1000 },
  { ...base, id: 2, channel: 'sms', recipient: '+8613800000000', content: 'Fridge 1 9.5C', status: 2, result: 'SMS_URL not configured' },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const form = () => within(document.querySelector('form')!);

describe('notice log page', () => {
  it('shows each notice with its channel, status, result and attempts; filters by recipient', async () => {
    const calls = serverAnswers({ [noticeApi.page.path]: { total: 2, rows } });
    renderSignedIn(<NoticeLogPage />, { userType: 2, funcs: ['viewNoticeLog'] });
    await screen.findByText('ops@demo.test');
    expect(headers()).toEqual(['Written', 'Type', 'Channel', 'Recipient', 'Status', 'Content', 'Sent', 'Result', 'Attempts', 'Customer', 'Actions']);
    expect(searchLabels()).toEqual(['Recipient', 'Type', 'Channel', 'Status', 'Written']);
    expect(screen.getByText('SMS_URL not configured')).toBeTruthy();
    expect(screen.getAllByText('Failed').length).toBeGreaterThan(0);
    // No retry without editNoticeLog.
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
    fireEvent.change(form().getByLabelText('Recipient'), { target: { value: '+86138' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(calls.filter((c) => c.path === noticeApi.page.path).at(-1)!.query).toEqual({ recipient: '+86138', iDisplayStart: '0', iDisplayLength: '15' }));
  });

  it('labels a skipped row and says in words why nobody was told; no retry on it', async () => {
    const skipped = { ...base, id: 3, channel: 'email', recipient: '', content: 'Fridge 2 is too warm', status: 3, result: 'noRecipient' };
    serverAnswers({ [noticeApi.page.path]: { total: 2, rows: [rows[0], skipped] } });
    renderSignedIn(<NoticeLogPage />, { funcs: ['viewNoticeLog', 'editNoticeLog'] });
    await screen.findByText('ops@demo.test');
    expect(screen.getAllByText('Skipped').length).toBeGreaterThan(0);
    expect(screen.getByText('The alarm reaches nobody (no recipient with an address on its channels)')).toBeTruthy();
    expect(screen.queryByText('noRecipient')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retry' })).toBeNull();
  });

  it('retries a failed notice, and only a failed one', async () => {
    const calls = serverAnswers({ [noticeApi.page.path]: { total: 2, rows }, [noticeApi.retry.path]: { retried: 1 } });
    renderSignedIn(<NoticeLogPage />, { funcs: ['viewNoticeLog', 'editNoticeLog'] });
    await screen.findByText('ops@demo.test');
    expect(headers()).not.toContain('Customer');
    const retry = screen.getAllByRole('button', { name: 'Retry' });
    expect(retry).toHaveLength(1);
    fireEvent.click(retry[0]);
    await waitFor(() => expect(calls.find((c) => c.path === noticeApi.retry.path)).toMatchObject({ method: 'PUT', query: { ids: '2' } }));
  });
});
