import { describe, expect, it } from 'vitest';
import { summariseAlarms, type AlarmCarrier } from './alarmLogic';

const c = (over: Partial<AlarmCarrier>): AlarmCarrier => ({ alarmOn: true, hasTrigger: true, pausedUntil: null, reachesNobody: false, channels: ['email'], ...over });

describe('alarm mode statistics', () => {
  it('counts switches as the board colours them, pauses apart, channels of carriers whose alarm is on', () => {
    const now = 1_000_000;
    const s = summariseAlarms(
      [
        c({ channels: ['email', 'sms'] }),
        c({ alarmOn: false, channels: ['voice'] }),
        c({ hasTrigger: false, alarmOn: true }),
        c({ pausedUntil: now + 1 }),
        c({ pausedUntil: now - 1, reachesNobody: true }),
      ],
      now,
    );
    expect(s).toMatchObject({ on: 2, off: 1, noTrigger: 1, paused: 1, reachNobody: 1 });
    expect(s.byChannel).toEqual({ email: 4, sms: 1, voice: 0 });
    expect(summariseAlarms([])).toMatchObject({ on: 0, off: 0, noTrigger: 0, byChannel: { email: 0, sms: 0, voice: 0 } });
  });
});
