// @vitest-environment jsdom
/**
 * Row links and the add button: a link is offered only with its function codes and for the rows
 * it accepts; one that asks first acts only once confirmed; a disabled one does nothing and says
 * why; the actions column is a column of a ListPage and stays out of its export. The add button
 * shows only to who may add.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { baseApi, type BaseRow } from '@coldwatch/contract';
import { AddButton } from './AddButton';
import { linkActionsColumn, type LinkActionsDef } from './LinkActions';
import { ListPage } from './ListPage';
import { csvTable, type ListColumn } from './listColumns';
import type { Can } from './RowActions';
import { renderSignedIn, serverAnswers } from './testing/render';
import { useAuth } from '../app/auth';

const ROWS = [
  { id: 7, devNo: 'B0000007', name: 'Fridge base', status: 1 },
  { id: 8, devNo: 'B0000008', name: 'Spare base', status: 2 },
] as unknown as BaseRow[];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const handlers = () => ({ edit: vi.fn(), stop: vi.fn(), remove: vi.fn() });

const def = (h: ReturnType<typeof handlers>): LinkActionsDef<BaseRow> => ({
  title: 'Actions',
  width: 200,
  items: [
    { key: 'edit', perm: 'editPlinth', label: 'Edit', hint: (r) => (r.status === 2 ? 'Stopped: edits apply when enabled' : undefined), onClick: h.edit },
    {
      key: 'status',
      perm: 'editPlinth',
      label: (r) => (r.status === 2 ? 'Enable' : 'Stop'),
      danger: (r) => r.status !== 2,
      confirm: (r) => ({ title: `Stop ${r.name}?`, okText: 'Yes', cancelText: 'No', danger: true }),
      onClick: h.stop,
    },
    {
      key: 'delete',
      perm: ['removePlinth'],
      label: 'Delete',
      danger: true,
      when: (r) => r.status === 2,
      disabled: (r) => r.name.startsWith('Spare'),
      hint: (r) => (r.name.startsWith('Spare') ? 'Kept as a spare' : undefined),
      confirm: () => ({ title: 'Delete it?', okText: 'Yes', cancelText: 'No' }),
      onClick: h.remove,
    },
  ],
});

/** A ListPage whose last column is the links, with the caller's `can` as the page has it. */
function Page({ h }: { h: ReturnType<typeof handlers> }) {
  const { can } = useAuth();
  const columns: ListColumn<BaseRow>[] = [{ title: 'Number', dataIndex: 'devNo' }, linkActionsColumn(def(h), can)];
  return <ListPage title="Bases" route={baseApi.page} columns={columns} empty="none" scrollX={800} />;
}

const linksOf = async (devNo: string) => {
  const row = (await screen.findByText(devNo)).closest('tr')!;
  return within(row)
    .queryAllByRole('button')
    .map((b) => b.textContent);
};

describe('row links', () => {
  it('offers a link only with its function codes', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    renderSignedIn(<Page h={handlers()} />, { funcs: ['editPlinth'] });
    expect(await linksOf('B0000007')).toEqual(['Edit', 'Stop']);
    expect(await linksOf('B0000008')).toEqual(['Edit', 'Enable']);
  });

  it('offers a link only for the rows it accepts', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    renderSignedIn(<Page h={handlers()} />, { funcs: ['editPlinth', 'removePlinth'] });
    expect(await linksOf('B0000007')).toEqual(['Edit', 'Stop']);
    expect(await linksOf('B0000008')).toEqual(['Edit', 'Enable', 'Delete']);
  });

  it('offers none without any function code', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    renderSignedIn(<Page h={handlers()} />);
    expect(await linksOf('B0000007')).toEqual([]);
  });

  it('acts at once on a plain link, with the row', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    const h = handlers();
    renderSignedIn(<Page h={h} />, { funcs: ['editPlinth'] });
    const row = (await screen.findByText('B0000008')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    expect(h.edit).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }));
  });

  it('asks first: nothing happens on No, the action runs on Yes', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    const h = handlers();
    renderSignedIn(<Page h={h} />, { funcs: ['editPlinth'] });
    const row = (await screen.findByText('B0000007')).closest('tr')!;
    const stop = within(row).getByRole('button', { name: 'Stop' });
    expect(stop.className).toContain('dangerous');
    fireEvent.click(stop);
    const ask = (await screen.findByText('Stop Fridge base?')).closest('.ant-popover')! as HTMLElement;
    expect(h.stop).not.toHaveBeenCalled();
    fireEvent.click(within(ask).getByRole('button', { name: 'No' }));
    expect(h.stop).not.toHaveBeenCalled();
    fireEvent.click(stop);
    fireEvent.click(within((await screen.findByText('Stop Fridge base?')).closest('.ant-popover')! as HTMLElement).getByRole('button', { name: 'Yes' }));
    await waitFor(() => expect(h.stop).toHaveBeenCalledWith(expect.objectContaining({ id: 7 })));
  });

  it('shows a hint over a link, for the rows it answers one', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    renderSignedIn(<Page h={handlers()} />, { funcs: ['editPlinth'] });
    fireEvent.mouseEnter(within((await screen.findByText('B0000008')).closest('tr')!).getByRole('button', { name: 'Edit' }));
    expect(await screen.findByText('Stopped: edits apply when enabled')).toBeTruthy();
    fireEvent.mouseEnter(within(screen.getByText('B0000007').closest('tr')!).getByRole('button', { name: 'Edit' }));
    expect(screen.getAllByRole('tooltip')).toHaveLength(1);
  });

  it('shows a disabled link that neither asks nor acts', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    const h = handlers();
    renderSignedIn(<Page h={h} />, { funcs: ['removePlinth'] });
    const row = (await screen.findByText('B0000008')).closest('tr')!;
    const del = within(row).getByRole('button', { name: 'Delete' }) as HTMLButtonElement;
    expect(del.disabled).toBe(true);
    fireEvent.click(del);
    expect(screen.queryByText('Delete it?')).toBeNull();
    expect(h.remove).not.toHaveBeenCalled();
  });

  it('is a column of the list, left out of its export', () => {
    const can: Can = () => true;
    const columns: ListColumn<BaseRow>[] = [{ title: 'Number', dataIndex: 'devNo' }, linkActionsColumn(def(handlers()), can)];
    expect(columns[1]).toMatchObject({ title: 'Actions', key: 'actions', width: 200, fixed: 'right' });
    expect(csvTable(columns, ROWS)).toEqual({ header: ['Number'], rows: [['B0000007'], ['B0000008']] });
  });
});

describe('AddButton', () => {
  it('shows to a caller holding its codes and calls its handler', async () => {
    serverAnswers({});
    const added = vi.fn();
    renderSignedIn(<AddButton perm={['newPlinth', 'editPlinth']} onClick={added}>Add</AddButton>, { funcs: ['newPlinth', 'editPlinth'] });
    fireEvent.click(await screen.findByRole('button', { name: /Add/ }));
    expect(added).toHaveBeenCalledTimes(1);
  });

  it('is not there without one of them', () => {
    serverAnswers({});
    renderSignedIn(<AddButton perm={['newPlinth', 'editPlinth']} onClick={() => {}}>Add</AddButton>, { funcs: ['newPlinth'] });
    expect(screen.queryByRole('button', { name: /Add/ })).toBeNull();
  });
});
