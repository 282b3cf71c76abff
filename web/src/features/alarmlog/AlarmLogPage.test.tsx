// @vitest-environment jsdom
/**
 * /noti/alarmLog shows why (the reason given with a switch or a pause), a pause with its end
 * time, and the alarm-resume job's row at a pause's end in the reader's language.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { alarmLogApi } from '@coldwatch/contract';
import { headers } from '../../ui/testing/listPage';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import AlarmLogPage from './AlarmLogPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const base = { carrierId: 3, carrierName: 'Test Fridge', carrierType: 2, sceneLabel: 'Ward', alarmOn: true, customerId: 1, customerName: 'Demo', pausedUntil: null };
const rows = [
  { ...base, id: 3, time: Date.UTC(2026, 0, 5, 3), reason: 'pause ended: Defrost', operator: 'system' },
  { ...base, id: 2, time: Date.UTC(2026, 0, 5, 1), reason: 'Defrost', operator: 'demo', pausedUntil: Date.UTC(2026, 0, 5, 3) },
  { ...base, id: 1, time: Date.UTC(2026, 0, 5, 0), reason: '', operator: 'demo', alarmOn: false },
];

describe('alarm switch log page', () => {
  it('shows the reason, a pause with its end, and the end of a pause in words', async () => {
    serverAnswers({ [alarmLogApi.page.path]: { total: 3, rows } });
    renderSignedIn(<AlarmLogPage />, { funcs: ['viewAlarmRecord'] });
    await screen.findByText('Pause ended (Defrost)');
    expect(headers()).toContain('Reason');
    // The pause's row: until 11:00 in the customer's +08:00.
    expect(screen.getByText('Paused until 01-05 11:00')).toBeTruthy();
    expect(screen.getByText('Defrost')).toBeTruthy();
    expect(screen.getByText('Alarm off')).toBeTruthy();
    expect(screen.queryByText('pause ended: Defrost')).toBeNull();
  });
});
