// @vitest-environment jsdom
/**
 * The list kit: one column definition renders its header and cell, makes its search field
 * (whose value goes to the request) and its CSV column; a row action calls its handler, and is
 * not offered without its function codes.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { baseApi, type BaseRow } from '@coldwatch/contract';
import { ListPage } from './ListPage';
import { csvTable, searchFields, searchFilters, type ListColumn } from './listColumns';
import type { RowActionsDef } from './RowActions';
import { renderSignedIn, serverAnswers } from './testing/render';

const ROWS = [
  { id: 7, devNo: 'B0000007', name: 'Fridge base', status: 1, type: 'thermohygro' },
  { id: 8, devNo: 'B0000008', name: '=cmd()', status: 2, type: 'thermohygro' },
] as unknown as BaseRow[];

const columns: ListColumn<BaseRow>[] = [
  { title: 'Number', dataIndex: 'devNo', width: 120, render: (v: string) => <code>{v}</code>, search: { type: 'input' } },
  { title: 'State', dataIndex: 'status', render: (v: number) => (v === 2 ? 'Stopped' : 'Running'), csv: (r) => (r.status === 2 ? 'stopped' : 'running'), search: { type: 'select', options: [{ value: 2, label: 'Stopped' }], order: 1 } },
  { title: 'Label', key: 'label', render: (_: unknown, r) => `${r.name}!` },
  { title: 'Name', dataIndex: 'name', search: { type: 'input', name: 'name', label: 'Name contains' } },
  { title: 'Secret', dataIndex: 'description', hidden: true, search: { type: 'input' } },
];

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const header = (name: string) => screen.getAllByRole('columnheader').find((h) => h.textContent === name);

describe('ListColumn', () => {
  it('gives the search bar its fields: column order, then by order; name and label from the column unless given', () => {
    expect(searchFields(columns).map((f) => [f.name, f.label, f.type])).toEqual([
      ['devNo', 'Number', 'input'],
      ['name', 'Name contains', 'input'],
      ['status', 'State', 'select'],
    ]);
  });

  it('sends a range field as its two filters, and an empty range as none', () => {
    const ranged: ListColumn<BaseRow>[] = [...columns, { title: 'Added', dataIndex: 'createdAt', search: { type: 'datetimeRange', range: ['startTime', 'endTime'] } }];
    expect(searchFields(ranged).find((f) => f.name === 'createdAt')).toEqual({ type: 'datetimeRange', name: 'createdAt', label: 'Added' });
    expect(searchFilters(ranged, { devNo: 'B1', createdAt: [1000, 2000] })).toEqual({ devNo: 'B1', startTime: 1000, endTime: 2000 });
    expect(searchFilters(ranged, { devNo: 'B1' })).toEqual({ devNo: 'B1', startTime: undefined, endTime: undefined });
    expect(searchFilters(columns, { devNo: 'B1', status: 2 })).toEqual({ devNo: 'B1', status: 2 });
  });

  it('gives the export its header and cells: fields, csv functions; computed and hidden columns left out', () => {
    expect(csvTable(columns, ROWS)).toEqual({
      header: ['Number', 'State', 'Name'],
      rows: [
        ['B0000007', 'running', 'Fridge base'],
        ['B0000008', 'stopped', '=cmd()'],
      ],
    });
  });

  it('renders its header and its cell in the table, and its search field filters the request', async () => {
    const calls = serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    renderSignedIn(<ListPage title="Bases" intro="What a base is for" route={baseApi.page} columns={columns} empty="none" scrollX={800} />);
    await screen.findByText('B0000007');
    expect(screen.getByRole('alert').textContent).toContain('What a base is for');
    expect(header('Number')).toBeTruthy();
    expect(header('Label')).toBeTruthy();
    expect(header('Secret')).toBeUndefined();
    expect(screen.getByText('Fridge base!')).toBeTruthy();
    expect(screen.getAllByText('Stopped').length).toBeGreaterThan(0);

    fireEvent.change(screen.getByLabelText('Number'), { target: { value: ' B0000008 ' } });
    fireEvent.click(screen.getByRole('button', { name: /Search/ }));
    await waitFor(() => expect(calls.at(-1)!.query).toEqual({ devNo: 'B0000008', iDisplayStart: '0', iDisplayLength: '15' }));
  });

  it('exports the rows shown with the columns\' headers', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    const blobs: Blob[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (b: Blob) => (blobs.push(b), 'blob:x'), revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    renderSignedIn(<ListPage title="Bases" route={baseApi.page} columns={columns} empty="none" scrollX={800} exportName="bases" />);
    await screen.findByText('B0000007');
    fireEvent.click(screen.getByRole('button', { name: /Export/ }));
    expect(click).toHaveBeenCalled();
    const text = (await blobs[0].text()).replace(/^\ufeff/, '');
    expect(text.split('\r\n')).toEqual(['Number,State,Name', 'B0000007,running,Fridge base', "B0000008,stopped,'=cmd()"]);
  });
});

describe('RowActions', () => {
  const run = () => {
    const opened = vi.fn();
    const edited = vi.fn();
    const removed = vi.fn();
    const actions: RowActionsDef<BaseRow> = {
      title: 'Actions',
      width: 110,
      primary: { label: 'Detail', onClick: opened },
      items: [
        { key: 'edit', label: 'Edit', perm: 'editPlinth', onClick: edited },
        { key: 'status', label: (r) => (r.status === 2 ? 'Enable' : 'Stop'), perm: 'editPlinth', onClick: () => {} },
        { key: 'delete', label: 'Delete', perm: ['removePlinth'], danger: true, when: (r) => r.status === 2, onClick: removed },
      ],
    };
    return { opened, edited, removed, actions };
  };
  const menuOf = async (devNo: string) => {
    const row = (await screen.findByText(devNo)).closest('tr')!;
    const buttons = within(row).getAllByRole('button');
    fireEvent.mouseEnter(buttons[1]);
    fireEvent.click(buttons[1]);
    return { row, primary: buttons[0] };
  };

  it('calls the handler of the main part and of a menu item with the row', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    const { opened, edited, removed, actions } = run();
    renderSignedIn(<ListPage title="Bases" route={baseApi.page} columns={columns} actions={actions} empty="none" scrollX={800} />, { funcs: ['editPlinth', 'removePlinth'] });
    const { primary } = await menuOf('B0000008');
    fireEvent.click(primary);
    expect(opened).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }));
    fireEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    expect(removed).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }));
    expect(screen.getByRole('menuitem', { name: 'Enable' })).toBeTruthy();
    fireEvent.click(screen.getByRole('menuitem', { name: 'Edit' }));
    expect(edited).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }));
  });

  it('hides an action without its function code, and one its row does not accept', async () => {
    serverAnswers({ [baseApi.page.path]: { total: 2, rows: ROWS } });
    const { actions } = run();
    renderSignedIn(<ListPage title="Bases" route={baseApi.page} columns={columns} actions={actions} empty="none" scrollX={800} />, { funcs: ['editPlinth'] });
    await menuOf('B0000008');
    await screen.findByRole('menuitem', { name: 'Edit' });
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
    cleanup();
    renderSignedIn(<ListPage title="Bases" route={baseApi.page} columns={columns} actions={actions} empty="none" scrollX={800} />, { funcs: ['editPlinth', 'removePlinth'] });
    await menuOf('B0000007');
    await screen.findByRole('menuitem', { name: 'Stop' });
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });
});
