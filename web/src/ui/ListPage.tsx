/**
 * A list screen as configuration (ant-design-pro's ProTable, our way): a `/page` operation, one
 * list of column definitions (`ListColumn`: the table's columns, the search bar's fields and the
 * CSV export's columns) and the row actions; the page adds its toolbar buttons and dialogs.
 */
import { useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert, Button, type TableProps } from 'antd';
import { DownloadOutlined } from '@ant-design/icons';
import { useAuth } from '../app/auth';
import { downloadCsv } from '../lib/csv';
import { PageCard } from './PageCard';
import { PagedTable, type FiltersOf, type PagedRoute, type PagedTableRef, type RowOf } from './PagedTable';
import { SearchBar } from './SearchBar';
import { actionsColumn, type RowActionsDef } from './RowActions';
import { csvTable, searchFields, searchFilters, tableColumns, type ListColumn } from './listColumns';

export interface ListPageProps<D extends PagedRoute> {
  /** The card's title (none where the shell's tab already names the screen). */
  title?: ReactNode;
  /** What the screen is for, above the search bar, where its name could mislead. */
  intro?: ReactNode;
  /** The `/page` operation. */
  route: D;
  columns: ListColumn<RowOf<D>>[];
  /** The row actions (an actions column fixed on the right). */
  actions?: RowActionsDef<RowOf<D>>;
  /** Filters always sent beside the search bar's (e.g. the sensor kind). */
  params?: FiltersOf<D>;
  /** Buttons right of the search bar (add, import, …). */
  toolbar?: ReactNode;
  /** Text of an empty list (default: the table's own). */
  empty?: ReactNode;
  /** Horizontal scroll width of the table. */
  scrollX: number;
  /** The table's density (default small). */
  size?: TableProps<RowOf<D>>['size'];
  /** Row selection (batch actions). */
  rowSelection?: TableProps<RowOf<D>>['rowSelection'];
  /** With a file name (without `.csv`): an export button that downloads the rows shown. */
  exportName?: string;
  ref?: Ref<PagedTableRef>;
  /** Dialogs of the page. */
  children?: ReactNode;
}

/** The table of a ListPage, for reloading after a change: `const list = useListRef(); … list.reload()`. */
export function useListRef() {
  const ref = useRef<PagedTableRef>(null);
  return useMemo(() => ({ ref, reload: () => ref.current?.reload() }), []);
}

export function ListPage<D extends PagedRoute>({ title, intro, route, columns, actions, params, toolbar, empty, scrollX, size = 'small', rowSelection, exportName, ref, children }: ListPageProps<D>) {
  const { t } = useTranslation();
  const { can } = useAuth();
  const [filters, setFilters] = useState<Record<string, unknown>>({});
  const [rows, setRows] = useState<RowOf<D>[]>([]);
  const query = useMemo(() => ({ ...filters, ...params }) as FiltersOf<D>, [filters, params]);
  const fields = useMemo(() => searchFields(columns), [columns]);
  const shown = [...tableColumns(columns), ...(actions ? [actionsColumn(actions, can)] : [])];
  const exportCsv = () => {
    const csv = csvTable(columns, rows);
    downloadCsv(`${exportName}.csv`, csv.header, csv.rows);
  };
  return (
    <PageCard title={title}>
      {intro && <Alert type="info" showIcon title={intro} style={{ marginBottom: 12 }} />}
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setFilters(searchFilters(columns, v))} />
        </div>
        {exportName && (
          <Button icon={<DownloadOutlined />} disabled={!rows.length} onClick={exportCsv}>
            {t('common:action.export')}
          </Button>
        )}
        {toolbar}
      </div>
      <PagedTable
        ref={ref}
        route={route}
        params={query}
        size={size}
        rowKey="id"
        rowSelection={rowSelection}
        columns={shown}
        locale={empty === undefined ? undefined : { emptyText: empty }}
        scroll={{ x: scrollX }}
        onLoaded={exportName ? (res) => setRows(res.rows as RowOf<D>[]) : undefined}
      />
      {children}
    </PageCard>
  );
}
