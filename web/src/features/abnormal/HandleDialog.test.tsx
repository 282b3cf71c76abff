// @vitest-environment jsdom
/**
 * The handle dialog as a user meets it: the reasons of the exceptions' customer offered, the
 * handling's fields, and the signature (account and password, never filled in for the user).
 * Without a signature nothing is sent; a handling of several exceptions goes as one body with
 * their ids; a wrong password from the server shows on the password field and the dialog stays.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { exceptionApi, exReasonApi, type ExceptionRow } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import { dialog, fill, pick } from '../../ui/testing/dialog';
import { HandleDialog } from './HandleDialog';

const row = (id: number, over: Partial<ExceptionRow> = {}): ExceptionRow => ({
  id, customerId: 1, customerName: 'Demo', carrierId: 3, carrierName: 'Vaccine fridge', sensorId: 4, devNo: 'T1000001', gatewayId: 5, type: 'data', category: 'temp_high',
  status: 0, ongoing: false, duringPause: false, startTs: Date.UTC(2026, 0, 5, 1), endTs: Date.UTC(2026, 0, 5, 2), durationS: 3600, firstValue: 8.3, peakValue: 9.9, limitMin: 2, limitMax: 8,
  reason: '', measures: '', reasonId: null, judgement: null, excluded: false, excludedWhy: '', createdAt: Date.UTC(2026, 0, 5, 1), ...over,
});

const REASONS = [
  { id: 71, code: 'door_open', nameZh: '门未关好', nameEn: 'Door left open' },
  { id: 72, code: 'sensor_fault', nameZh: '传感器故障', nameEn: 'Sensor fault' },
];

const sign = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Sign and save' }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('HandleDialog', () => {
  it('handles two exceptions in one signed body, and refuses to send without the signature', async () => {
    const calls = serverAnswers({ [exReasonApi.options.path]: REASONS, [exceptionApi.handle.path]: { handled: 2, status: 1 } });
    const onClose = vi.fn();
    const onDone = vi.fn();
    renderSignedIn(<HandleDialog target={{ mode: 'handle', rows: [row(11), row(12)] }} onClose={onClose} onDone={onDone} />, { funcs: ['editEx'] });
    expect(await screen.findByText('Handle 2 exceptions')).toBeTruthy();
    await pick('Reason', 'Door left open');
    fill('Measures taken', ' Closed the door, checked the vaccines ');
    fireEvent.click(within(dialog()).getByLabelText('Confirmed abnormal'));
    sign();
    expect(await within(dialog()).findByText('Enter your account')).toBeTruthy();
    expect(within(dialog()).getByText('Enter your password')).toBeTruthy();
    expect(calls.some((c) => c.path === exceptionApi.handle.path)).toBe(false);
    // The reasons are the exceptions' customer's.
    expect(calls.find((c) => c.path === exReasonApi.options.path)?.query).toEqual({ customerId: '1' });

    fill('Account', 'demo');
    fill('Password', 'demo123');
    sign();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.path === exceptionApi.handle.path)).toMatchObject({
      method: 'PUT',
      body: { ids: [11, 12], reasonId: 71, measures: 'Closed the door, checked the vaccines', comment: '', judgement: 'confirmed', excluded: false, excludedWhy: '', meaning: 'reviewed', sign: { account: 'demo', password: 'demo123' } },
    });
    expect(onDone).toHaveBeenCalled();
  });

  it('asks why when excluded, and signs with the chosen meaning', async () => {
    const calls = serverAnswers({ [exReasonApi.options.path]: REASONS, [exceptionApi.handle.path]: { handled: 1, status: 1 } });
    const onClose = vi.fn();
    renderSignedIn(<HandleDialog target={{ mode: 'handle', rows: [row(11)] }} onClose={onClose} onDone={() => {}} />, { funcs: ['editEx'] });
    await pick('Reason', 'Sensor fault');
    fill('Measures taken', 'Probe replaced');
    fireEvent.click(within(dialog()).getByLabelText('Suspected abnormal'));
    fireEvent.click(within(dialog()).getByRole('switch'));
    await within(dialog()).findByLabelText('Why excluded');
    fireEvent.click(within(dialog()).getByText('Approved'));
    fill('Account', 'demo');
    fill('Password', 'demo123');
    sign();
    expect(await within(dialog()).findByText('Say why the exception is excluded')).toBeTruthy();
    expect(calls.some((c) => c.path === exceptionApi.handle.path)).toBe(false);
    fill('Why excluded', 'The probe lay outside the boxes');
    sign();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.path === exceptionApi.handle.path)?.body).toMatchObject({ ids: [11], reasonId: 72, judgement: 'suspected', excluded: true, excludedWhy: 'The probe lay outside the boxes', meaning: 'approved' });
  });

  it('shows a wrong password on the password field and stays open', async () => {
    const onClose = vi.fn();
    vi.stubGlobal(
      'fetch',
      vi.fn(async (input: string) => {
        const path = new URL(input, 'http://localhost').pathname;
        const body =
          path === exReasonApi.options.path
            ? { state: { code: 200000, msg: 'ok' }, result: REASONS }
            : { state: { code: 500088, msg: 'The account or password of the signature is wrong' }, result: { errors: { password: 'The account or password of the signature is wrong' } } };
        return new Response(JSON.stringify(body), { headers: { 'content-type': 'application/json' } });
      }),
    );
    renderSignedIn(<HandleDialog target={{ mode: 'handle', rows: [row(11)] }} onClose={onClose} onDone={() => {}} />, { funcs: ['editEx'] });
    await pick('Reason', 'Door left open');
    fill('Measures taken', 'Door closed');
    fireEvent.click(within(dialog()).getByLabelText('Confirmed abnormal'));
    fill('Account', 'demo');
    fill('Password', 'not-it');
    sign();
    expect(await within(dialog()).findByText('The account or password of the signature is wrong')).toBeTruthy();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('corrects a processed exception from its current handling, with why', async () => {
    const calls = serverAnswers({ [exReasonApi.options.path]: REASONS, [exceptionApi.correct.path]: { id: 11 } });
    const onClose = vi.fn();
    const r = row(11, { status: 1, reasonId: 71, reason: 'Door left open', measures: 'Door closed', judgement: 'confirmed' });
    renderSignedIn(<HandleDialog target={{ mode: 'correct', row: r }} onClose={onClose} onDone={() => {}} />, { funcs: ['editEx'] });
    expect(await screen.findByText('Correct the handling')).toBeTruthy();
    await within(dialog()).findByText('Door left open');
    fill('Account', 'demo');
    fill('Password', 'demo123');
    sign();
    expect(await within(dialog()).findByText('Say why the handling is corrected')).toBeTruthy();
    fill('Why the correction', 'The door was closed by the night shift, not the day shift');
    sign();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(calls.find((c) => c.path === exceptionApi.correct.path)?.body).toMatchObject({ id: 11, reasonId: 71, measures: 'Door closed', judgement: 'confirmed', comment: 'The door was closed by the night shift, not the day shift' });
  });

  it('will not handle exceptions of two customers together', async () => {
    serverAnswers({ [exReasonApi.options.path]: REASONS });
    renderSignedIn(<HandleDialog target={{ mode: 'handle', rows: [row(11), row(12, { customerId: 2 })] }} onClose={() => {}} onDone={() => {}} />, { funcs: ['editEx'] });
    expect(await screen.findByText(/belong to different customers/)).toBeTruthy();
    expect((within(dialog()).getByRole('button', { name: 'Sign and save' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
