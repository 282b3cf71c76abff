import { describe, expect, it } from 'vitest';
import { scheduleText } from './ScheduledPage';

const t = (k: string, o: { count: number }) => `${k}:${o.count}`;

describe('schedule text', () => {
  it('says hours, minutes or seconds, whichever divides the interval', () => {
    expect(scheduleText(3600, t)).toBe('every.h:1');
    expect(scheduleText(900, t)).toBe('every.min:15');
    expect(scheduleText(30, t)).toBe('every.s:30');
    expect(scheduleText(90, t)).toBe('every.s:90');
  });
});
