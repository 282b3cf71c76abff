// @vitest-environment jsdom
/**
 * /homepageset: the styles and the widgets the server offers (none other), switched on and moved;
 * the sensor picker only with the sensor-records widget; saving sends style, widgets in their
 * order and sensors.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { homeRefs, sensorRefs } from '@coldwatch/contract';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import HomeSetPage from './HomeSetPage';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const saved = { style: 'classic', widgets: ['exceptionStats', 'pendingExceptions'], sensors: [], offered: ['exceptionStats', 'pendingExceptions', 'sensorRecords', 'listMonitor'], saved: true };

describe('HomeSetPage', () => {
  it('offers only what the server offers, and saves the style, the widgets in order and the sensors', async () => {
    const calls = serverAnswers({
      // GET and PUT share the path; both answer the saved settings.
      [homeRefs.get.path]: saved,
      [sensorRefs.page.path]: { total: 1, rows: [{ devNo: 'T1000001', carrierName: 'Fridge 1' }] },
    });
    renderSignedIn(<HomeSetPage />);
    await screen.findByTestId('home-widget-exceptionStats');
    // Offered only: no map, no dashboard for this user.
    expect(screen.queryByTestId('home-widget-mapMonitor')).toBeNull();
    expect(screen.getAllByTestId(/^home-widget-/).map((e) => e.dataset.testid)).toEqual([
      'home-widget-exceptionStats',
      'home-widget-pendingExceptions',
      'home-widget-sensorRecords',
      'home-widget-listMonitor',
    ]);
    expect(screen.queryByTestId('home-sensors')).toBeNull();
    fireEvent.click(screen.getByTestId('home-style-wall'));
    // Pending exceptions first, then sensor records switched on.
    fireEvent.click(within(screen.getByTestId('home-widget-pendingExceptions')).getByRole('button', { name: 'Move up' }));
    fireEvent.click(within(screen.getByTestId('home-widget-sensorRecords')).getByRole('switch'));
    await screen.findByTestId('home-sensors');
    fireEvent.click(screen.getByTestId('home-settings-save'));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ style: 'wall', widgets: ['pendingExceptions', 'exceptionStats', 'sensorRecords'], sensors: [] });
  });

  it('cannot save without a widget', async () => {
    serverAnswers({ [homeRefs.get.path]: { ...saved, widgets: ['exceptionStats'] }, [sensorRefs.page.path]: { total: 0, rows: [] } });
    renderSignedIn(<HomeSetPage />);
    const row = await screen.findByTestId('home-widget-exceptionStats');
    fireEvent.click(within(row).getByRole('switch'));
    await screen.findByText('Choose at least one widget');
    expect(screen.getByTestId('home-settings-save').closest('button')!.disabled).toBe(true);
  });
});
