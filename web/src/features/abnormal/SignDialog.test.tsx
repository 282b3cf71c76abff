// @vitest-environment jsdom
/**
 * The close and comment dialogs: a close of several exceptions goes as their ids in the query
 * and the signature in the body (its meaning is "closed"); a comment needs its text and the
 * signature.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { exceptionApi, type ExceptionRow } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { dialog, fill } from '../../ui/testing/dialog';
import { SignDialog } from './SignDialog';

const row = (id: number): ExceptionRow => ({
  id, customerId: 1, customerName: 'Demo', carrierId: 3, carrierName: 'Vaccine fridge', sensorId: 4, devNo: 'T1000001', gatewayId: 5, type: 'data', category: 'temp_low',
  status: 1, ongoing: false, duringPause: false, startTs: 0, endTs: 60_000, durationS: 60, firstValue: 1.5, peakValue: 1.2, limitMin: 2, limitMax: 8,
  reason: 'Door left open', measures: 'Closed', reasonId: 71, judgement: 'confirmed', excluded: false, excludedWhy: '', createdAt: 0,
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SignDialog', () => {
  it('closes the exceptions with a signature meaning "closed"', async () => {
    const calls = serverAnswers({ [exceptionApi.close.path]: { closed: 2 } });
    const onClose = vi.fn();
    renderSignedIn(<SignDialog target={{ mode: 'close', rows: [row(21), row(22)] }} onClose={onClose} onDone={() => {}} />, { funcs: ['editEx'] });
    expect(await screen.findByText('Close 2 exceptions')).toBeTruthy();
    expect(within(dialog()).getByText(/confirm this record as "Closed"/)).toBeTruthy();
    fill('Comment (optional)', 'Goods released by QA');
    fill('Account', 'demo');
    fill('Password', 'demo123');
    fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign and close' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.path === exceptionApi.close.path)).toMatchObject({
      method: 'PUT',
      query: { ids: '21,22' },
      body: { comment: 'Goods released by QA', sign: { account: 'demo', password: 'demo123' } },
    });
  });

  it('adds a comment only with its text and the signature', async () => {
    const calls = serverAnswers({ [exceptionApi.comment.path]: { id: 21 } });
    const onClose = vi.fn();
    renderSignedIn(<SignDialog target={{ mode: 'comment', row: row(21) }} onClose={onClose} onDone={() => {}} />, { funcs: ['editEx'] });
    const add = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign and add' }));
    add();
    expect(await within(dialog()).findByText('Enter the comment')).toBeTruthy();
    expect(within(dialog()).getByText('Enter your password')).toBeTruthy();
    fill('Comment', 'Stability data checked: no impact on the vaccines');
    fill('Account', 'demo');
    fill('Password', 'demo123');
    add();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.path === exceptionApi.comment.path)?.body).toEqual({ id: 21, comment: 'Stability data checked: no impact on the vaccines', meaning: 'reviewed', sign: { account: 'demo', password: 'demo123' } });
  });
});
