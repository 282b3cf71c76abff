// @vitest-environment jsdom
/**
 * PagedTable: sends the filters with iDisplayStart/iDisplayLength, shows the rows through its
 * columns, pages and changes its page size, goes back to page 1 when the filters change, and
 * shows a failed load with a retry.
 */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { baseApi, type BaseRow } from '@coldwatch/contract';
import { PagedTable } from './PagedTable';
import { renderSignedIn, serverAnswers, type Call } from './testing/render';

const ALL = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, devNo: `B${String(i + 1).padStart(7, '0')}`, name: `Base ${i + 1}` })) as unknown as BaseRow[];
const page = (c: Call) => {
  const from = Number(c.query.iDisplayStart);
  return { total: ALL.length, rows: ALL.slice(from, from + Number(c.query.iDisplayLength)) };
};
const columns = [
  { title: 'Number', dataIndex: 'devNo' },
  { title: 'Label', key: 'label', render: (_: unknown, r: BaseRow) => `${r.name}!` },
];
const pageCalls = (calls: Call[]) => calls.filter((c) => c.path === baseApi.page.path).map((c) => c.query);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('PagedTable', () => {
  it('sends the filters and the paging, shows the rows, and pages', async () => {
    const calls = serverAnswers({ [baseApi.page.path]: page });
    renderSignedIn(<PagedTable route={baseApi.page} rowKey="id" columns={columns} params={{ devNo: 'B', name: '' }} />);
    expect(await screen.findByText('B0000001')).toBeTruthy();
    expect(screen.getByText('Base 15!')).toBeTruthy();
    expect(screen.queryByText('B0000016')).toBeNull();
    expect(screen.getByText('20 in total')).toBeTruthy();
    // Empty filters are not sent.
    expect(pageCalls(calls)).toEqual([{ devNo: 'B', iDisplayStart: '0', iDisplayLength: '15' }]);

    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('B0000016')).toBeTruthy();
    await waitFor(() => expect(screen.queryByText('B0000001')).toBeNull());
    expect(pageCalls(calls).at(-1)).toEqual({ devNo: 'B', iDisplayStart: '15', iDisplayLength: '15' });
  });

  it('goes back to page 1 when its filters change', async () => {
    const calls = serverAnswers({ [baseApi.page.path]: page });
    function Filtered() {
      const [devNo, setDevNo] = useState('B');
      return (
        <>
          <button onClick={() => setDevNo('B00')}>narrow</button>
          <PagedTable route={baseApi.page} rowKey="id" columns={columns} params={{ devNo }} />
        </>
      );
    }
    renderSignedIn(<Filtered />);
    await screen.findByText('B0000001');
    fireEvent.click(screen.getByTitle('2'));
    await screen.findByText('B0000016');
    fireEvent.click(screen.getByRole('button', { name: 'narrow' }));
    await waitFor(() => expect(pageCalls(calls).at(-1)).toEqual({ devNo: 'B00', iDisplayStart: '0', iDisplayLength: '15' }));
  });

  it('shows a failed load\'s message with a retry that calls again', async () => {
    const calls = serverAnswers({});
    renderSignedIn(<PagedTable route={baseApi.page} rowKey="id" columns={columns} />);
    expect(await screen.findByText('no answer')).toBeTruthy();
    const before = pageCalls(calls).length;
    fireEvent.click(screen.getByRole('button', { name: /Retry/ }));
    await waitFor(() => expect(pageCalls(calls).length).toBe(before + 1));
  });

  it('on a phone shows each row as a card of labelled lines, its actions at the foot, the selection a checkbox', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({ matches: query.includes('max-width: 575.98px'), addEventListener: () => {}, removeEventListener: () => {} }));
    serverAnswers({ [baseApi.page.path]: page });
    const picked: unknown[][] = [];
    const withActions = [...columns, { title: 'Actions', key: 'actions', render: (_: unknown, r: BaseRow) => <button>edit {r.devNo}</button> }];
    const { container } = renderSignedIn(
      <PagedTable route={baseApi.page} rowKey="id" columns={withActions} rowSelection={{ selectedRowKeys: [], onChange: (keys) => picked.push(keys) }} />,
    );
    expect(await screen.findByText('B0000001')).toBeTruthy();
    expect(container.querySelector('table')).toBeNull();
    const cards = container.querySelectorAll('.cw-phone-row');
    expect(cards).toHaveLength(15);
    const first = cards[0] as HTMLElement;
    expect([...first.querySelectorAll('dt')].map((d) => d.textContent)).toEqual(['Number', 'Label']);
    expect([...first.querySelectorAll('dd')].map((d) => d.textContent)).toEqual(['B0000001', 'Base 1!']);
    expect(first.querySelector('.cw-phone-actions')?.textContent).toBe('edit B0000001');
    fireEvent.click(first.querySelector('input[type=checkbox]')!);
    expect(picked).toEqual([[1]]);
    fireEvent.click(screen.getByTitle('2'));
    expect(await screen.findByText('B0000016')).toBeTruthy();
  });
});
