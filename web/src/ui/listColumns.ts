/**
 * One column definition for a list screen (in the spirit of ant-design-pro's ProTable): the same
 * object is the table's column, its search field (`search`) and its column of the CSV export
 * (`csv`). `<ListPage>` renders all three from it; the functions here are the pure parts.
 */
import type { ReactNode } from 'react';
import type { ColumnType } from 'antd/es/table';
import type { SearchField } from './SearchBar';

/** A search field as a column declares it: name and label default to the column's. */
export type ColumnSearch = SearchField extends infer F
  ? F extends SearchField
    ? Omit<F, 'name' | 'label'> & {
        /** The filter's name in the request (default: the column's key or dataIndex). */
        name?: string;
        /** Default: the column's title. */
        label?: ReactNode;
        /** Fields come in column order; those with an order come after, lowest first. */
        order?: number;
        /** A range field's [from, to] sent as two filters of the request (`['startTime', 'endTime']`). */
        range?: readonly [from: string, to: string];
      }
    : never
  : never;

export interface ListColumn<R> extends Omit<ColumnType<R>, 'title' | 'dataIndex' | 'key'> {
  /** The header; also the CSV header and the search field's default label. */
  title: string;
  /** The row's field the column shows (and exports, and filters by, by default). */
  dataIndex?: keyof R & string;
  /** Needed when there is no dataIndex (a column computed from the row). */
  key?: string;
  /** Not shown, searched nor exported (a column only some callers see). */
  hidden?: boolean;
  /** The column's search field. */
  search?: ColumnSearch;
  /** Its CSV cell (default: the row's dataIndex value); false: not exported. A computed column without one is not exported. */
  csv?: false | ((row: R) => unknown);
}

const idOf = <R>(c: ListColumn<R>) => c.key ?? c.dataIndex ?? c.title;

/** The antd columns: the shown ones, without the kit's own properties. */
export function tableColumns<R>(columns: readonly ListColumn<R>[]): ColumnType<R>[] {
  return columns
    .filter((c) => !c.hidden)
    .map(({ hidden: _h, search: _s, csv: _c, ...col }) => col as ColumnType<R>);
}

/** The search bar's fields: the shown columns that declare one, in column order, then by `order`. */
export function searchFields<R>(columns: readonly ListColumn<R>[]): SearchField[] {
  return columns
    .filter((c) => !c.hidden && c.search)
    .map((c, i) => ({ c, i }))
    .sort((a, b) => (a.c.search!.order ?? 0) - (b.c.search!.order ?? 0) || a.i - b.i)
    .map(({ c }) => {
      const { order: _o, range: _r, name, label, ...rest } = c.search!;
      return { ...rest, name: name ?? idOf(c), label: label ?? c.title } as SearchField;
    });
}

/** The request's filters from the search bar's values: a range field's [from, to] as its two filters. */
export function searchFilters<R>(columns: readonly ListColumn<R>[], values: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const out = { ...values };
  for (const c of columns) {
    const range = c.hidden ? undefined : c.search?.range;
    if (!range) continue;
    const name = c.search!.name ?? idOf(c);
    const v = out[name] as readonly [unknown, unknown] | undefined;
    delete out[name];
    out[range[0]] = v?.[0];
    out[range[1]] = v?.[1];
  }
  return out;
}

/** The export as a header and rows of cells: the shown columns with a field or a `csv` function. */
export function csvTable<R>(columns: readonly ListColumn<R>[], rows: readonly R[]): { header: string[]; rows: unknown[][] } {
  const cols = columns.filter((c) => !c.hidden && c.csv !== false && (c.csv || c.dataIndex));
  const cell = (c: ListColumn<R>, r: R) => (typeof c.csv === 'function' ? c.csv(r) : r[c.dataIndex!]);
  return { header: cols.map((c) => c.title), rows: rows.map((r) => cols.map((c) => cell(c, r))) };
}
