import type { Key, ReactNode } from 'react';
import { Checkbox, Empty, Pagination, Spin, type PaginationProps } from 'antd';
import './phoneRows.css';

/* eslint-disable @typescript-eslint/no-explicit-any -- a row is whatever the list's route answers; the page's columns carry its type */
type Row = any;

/** What the cards read of a table column (antd's ColumnType, loosely: its generics are too deep to restate here). */
interface Column {
  key?: Key;
  title?: unknown;
  dataIndex?: string | number | readonly (string | number)[];
  render?: (value: any, row: Row, index: number) => unknown;
  fixed?: unknown;
  hidden?: boolean;
  children?: Column[];
}

/** The action columns (key `actions`/`action`, or pinned right) go to the card's foot, without a label. */
const isAction = (c: Column) => c.key === 'actions' || c.key === 'action' || c.fixed === 'right';

function leaves(columns: readonly Column[]): Column[] {
  return columns.flatMap((c) => (c.children?.length ? leaves(c.children) : [c]));
}

function cell(c: Column, row: Row, index: number): ReactNode {
  const path = c.dataIndex === undefined ? undefined : Array.isArray(c.dataIndex) ? (c.dataIndex as readonly (string | number)[]) : [c.dataIndex as string | number];
  const value = path ? path.reduce<Row>((v, k) => (v == null ? v : v[k]), row) : undefined;
  const shown = c.render ? c.render(value, row, index) : value;
  // A render may answer antd's cell object ({ children, props }): its children are the content.
  return (shown && typeof shown === 'object' && 'children' in shown && !('$$typeof' in shown) ? shown.children : shown) as ReactNode;
}

function keyOf(row: Row, rowKey: PhoneTable['rowKey'], index: number): Key {
  if (typeof rowKey === 'function') return rowKey(row, index);
  return (row[rowKey ?? 'key'] as Key) ?? index;
}

/** What of the table's props the cards use. */
export interface PhoneTable {
  columns?: readonly Column[];
  rowKey?: string | ((row: Row, index?: number) => Key);
  rowSelection?: { selectedRowKeys?: readonly Key[]; onChange?: (keys: Key[], rows: Row[], info: { type: 'single' }) => void; getCheckboxProps?: (row: Row) => { disabled?: boolean } | undefined };
  rowClassName?: string | ((row: Row, index: number, indent: number) => string);
  className?: string;
}

export interface PhoneRowsProps {
  table: PhoneTable;
  rows: readonly Row[];
  loading: boolean;
  /** What the table shows when empty (its locale's emptyText, an error among them). */
  empty?: ReactNode;
  pagination: PaginationProps;
}

/**
 * A list's rows on a phone: one card each, every column a labelled line (what the table would
 * put side by side, out of a 390 px screen), the actions at the foot, the selection a checkbox.
 * The same columns and renders as the table's: a page needs nothing of its own for it.
 */
export function PhoneRows({ table, rows, loading, empty, pagination }: PhoneRowsProps) {
  const columns = leaves(table.columns ?? []).filter((c) => !c.hidden);
  const facts = columns.filter((c) => !isAction(c));
  const actions = columns.filter(isAction);
  const sel = table.rowSelection;
  const selected = new Set(sel?.selectedRowKeys ?? []);
  const toggle = (key: Key, on: boolean) => {
    const keys = rows.map((r, i) => keyOf(r, table.rowKey, i)).filter((k) => (k === key ? on : selected.has(k)));
    sel?.onChange?.(keys, rows.filter((r, i) => keys.includes(keyOf(r, table.rowKey, i))), { type: 'single' });
  };
  return (
    <Spin spinning={loading}>
      <div className={`cw-phone-rows ${table.className ?? ''}`}>
        {rows.length === 0 && <div className="cw-phone-empty">{empty ?? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />}</div>}
        {rows.map((row, i) => {
          const key = keyOf(row, table.rowKey, i);
          const extra = typeof table.rowClassName === 'function' ? table.rowClassName(row, i, 0) : (table.rowClassName ?? '');
          const disabled = sel?.getCheckboxProps?.(row)?.disabled;
          return (
            <div key={key} className={`cw-phone-row ant-table-row ${extra}`} data-row-key={key}>
              {sel && <Checkbox className="cw-phone-check" checked={selected.has(key)} disabled={disabled} onChange={(e) => toggle(key, e.target.checked)} />}
              <dl>
                {facts.map((c, n) => (
                  <div key={String(c.key ?? c.dataIndex ?? n)} className="cw-phone-fact">
                    <dt>{c.title as ReactNode}</dt>
                    <dd>{cell(c, row, i)}</dd>
                  </div>
                ))}
              </dl>
              {actions.map((c, n) => (
                <div key={String(c.key ?? n)} className="cw-phone-actions">
                  {cell(c, row, i)}
                </div>
              ))}
            </div>
          );
        })}
        <Pagination size="small" align="center" {...pagination} showSizeChanger={false} />
      </div>
    </Spin>
  );
}
