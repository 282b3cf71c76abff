// @vitest-environment jsdom
/**
 * /sys/unitMeasurement on the list kit: columns and search fields; a unit some range measures in
 * cannot be deleted (its link disabled, saying why), an unused one is deleted after confirming.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { unitApi } from '@coldwatch/contract';
import { headers, rowOf, searchLabels } from '../../ui/testing/listPage';
import { renderSignedIn, serverAnswers } from '../../ui/testing/render';
import UnitPage from './UnitPage';

const rows = [
  { id: 1, unit: 'Kelvin', mark: 'K', number: 'KEL', valueType: 'decimal', description: '', rangeCount: 2, createdAt: 0 },
  { id: 2, unit: 'Lux', mark: 'lx', number: 'LUX', valueType: 'number', description: '', rangeCount: 0, createdAt: 0 },
];
const answers = { [unitApi.page.path]: { total: 2, rows }, [unitApi.del.path]: null };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('UnitPage', () => {
  it('shows its columns and search fields, and the add button to who may', async () => {
    serverAnswers(answers);
    renderSignedIn(<UnitPage />, { funcs: ['newProbeUnit'] });
    await screen.findByText('Kelvin');
    expect(headers()).toEqual(['Unit', 'Mark', 'Number', 'Type', 'Description', 'Ranges using it', 'Actions']);
    expect(searchLabels()).toEqual(['Unit, mark or number', 'Type']);
    expect(screen.getByRole('button', { name: /Add/ })).toBeTruthy();
  });

  it('a unit in use: its delete link disabled; an unused one deleted after confirming', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<UnitPage />, { funcs: ['removeProbeUnit'] });
    const used = within(await rowOf('Kelvin')).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(used.disabled).toBe(true);
    fireEvent.click(used);
    expect(screen.queryByText('Delete the unit Kelvin?')).toBeNull();
    fireEvent.click(within(await rowOf('Lux')).getByRole('button', { name: 'Delete' }));
    const ask = (await screen.findByText('Delete the unit Lux?')).closest('.ant-popover') as HTMLElement;
    fireEvent.click(within(ask).getAllByRole('button').at(-1)!);
    await waitFor(() => expect(calls.find((c) => c.path === unitApi.del.path)?.query).toEqual({ ids: '2' }));
  });
});
