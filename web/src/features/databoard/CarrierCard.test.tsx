// @vitest-environment jsdom
/**
 * The board card says when a carrier's alarm is on but would reach nobody (docs/alarms.md "An
 * alarm that reaches nobody"), and says nothing when someone is reached.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderSignedIn } from '../../ui/testing/render';
import { CarrierCard } from './CarrierCard';
import type { MonitorCarrier } from './monitorState';

afterEach(cleanup);

const carrier = (reachesNobody: boolean): MonitorCarrier => ({
  id: 1, name: 'Fridge A', type: 2, status: 1, alarmOn: true, mode: 'normal', loadType: 0, traceable: false, isKpi: true, sampleMode: 'latest', mktDh: 10_000,
  triggerId: null, triggerName: null, channels: ['email'], hasTrigger: false, reachesNobody, pausedUntil: null, pauseReason: '',
  sceneId: 3, sceneLabel: 'Ward', sceneCode: 'W', customerId: 1, customerName: 'Alpha', tempMin: 2, tempMax: 8, humMin: null, humMax: null,
  alarmDelayS: 0, tempMargin: 0.3, humMargin: 2, sensorCount: 0, createdAt: 0, openExceptions: 0, state: 'normal', sensors: [],
});

describe('CarrierCard', () => {
  it('marks a carrier whose alarm reaches nobody, with the why as its hint', () => {
    renderSignedIn(<CarrierCard carrier={carrier(true)} onSensor={() => {}} />);
    const tag = screen.getByText('Reaches nobody');
    expect(tag.closest('[data-reaches-nobody]')?.getAttribute('title')).toMatch(/no recipient has an address/);
  });

  it('shows no mark when its alarm reaches someone', () => {
    renderSignedIn(<CarrierCard carrier={carrier(false)} onSensor={() => {}} />);
    expect(screen.getByText('Fridge A')).toBeTruthy();
    expect(screen.queryByText('Reaches nobody')).toBeNull();
  });
});
