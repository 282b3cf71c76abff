// @vitest-environment jsdom
/**
 * An exception recorded during an alarm pause says so in its detail (nobody was told then); one
 * recorded with the alarm on does not.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderSignedIn } from '../../ui/testing/render';
import { ExceptionFacts, type ShownException } from './ExceptionFacts';

afterEach(cleanup);

const ex = (duringPause: boolean): ShownException => ({
  id: 1, customerName: 'Demo', carrierName: 'Vaccine fridge', devNo: 'T1000001', type: 'data', category: 'temp_high',
  status: 0, ongoing: true, duringPause, startTs: Date.UTC(2026, 0, 5, 1), endTs: null, durationS: 60, firstValue: 8.3, peakValue: 9.9, limitMin: 2, limitMax: 8,
  reason: '', measures: '', judgement: null, excluded: false, excludedWhy: '', createdAt: Date.UTC(2026, 0, 5, 1),
});

describe('ExceptionFacts', () => {
  it('marks an exception recorded during a pause', () => {
    renderSignedIn(<ExceptionFacts ex={ex(true)} timeZone="+08:00" noticeCount={1} />);
    expect(screen.getByText('During a pause')).toBeTruthy();
  });

  it('does not mark one recorded with the alarm on', () => {
    renderSignedIn(<ExceptionFacts ex={ex(false)} timeZone="+08:00" noticeCount={1} />);
    expect(screen.queryByText('During a pause')).toBeNull();
    expect(screen.getByText('Ongoing')).toBeTruthy();
  });
});
