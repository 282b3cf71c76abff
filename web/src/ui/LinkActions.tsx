/**
 * A row's actions as a row of links, for the catalogue screens (contacts, units, users, roles,
 * customers, menu resources) whose rows have a few actions that are all seen at once; lists of
 * devices, with more per row, use the split button of RowActions. The same rules as there: a
 * link is offered only to a caller holding its function codes, for the rows its `when` accepts.
 * A link may ask first in a popover, or stand disabled with a hint saying why.
 */
import type { ReactNode } from 'react';
import { Button, Popconfirm, Space, Tooltip } from 'antd';
import type { ListColumn } from './listColumns';
import { offeredActions, type Can, type RowAction } from './RowActions';

/** The popover a link asks in before it acts. */
export interface LinkConfirm {
  title: ReactNode;
  description?: ReactNode;
  okText: string;
  cancelText: string;
  /** A red OK button (deleting, cancelling an account). */
  danger?: boolean;
}

export interface LinkAction<R> extends Omit<RowAction<R>, 'danger'> {
  /** Red; a function when only some rows make it dangerous (disabling an enabled user). */
  danger?: boolean | ((row: R) => boolean);
  /** Shown but not clickable for the rows this accepts (`hint` says why). */
  disabled?: (row: R) => boolean;
  /** A tooltip over the link, for the rows it answers one. */
  hint?: (row: R) => ReactNode;
  /** Asked before `onClick` runs; a disabled link asks nothing. */
  confirm?: (row: R) => LinkConfirm;
}

export interface LinkActionsDef<R> {
  /** Column header and width (the column is fixed on the right). */
  title: string;
  width: number;
  items: LinkAction<R>[];
}

function RowLink<R>({ action: a, row }: { action: LinkAction<R>; row: R }) {
  const disabled = a.disabled?.(row) ?? false;
  const ask = disabled ? undefined : a.confirm?.(row);
  let link = (
    <Button type="link" size="small" danger={typeof a.danger === 'function' ? a.danger(row) : a.danger} disabled={disabled} onClick={ask ? undefined : () => a.onClick(row)}>
      {typeof a.label === 'function' ? a.label(row) : a.label}
    </Button>
  );
  if (ask)
    link = (
      <Popconfirm title={ask.title} description={ask.description} okText={ask.okText} cancelText={ask.cancelText} okButtonProps={ask.danger ? { danger: true } : undefined} onConfirm={() => a.onClick(row)}>
        {link}
      </Popconfirm>
    );
  const hint = a.hint?.(row);
  return hint ? <Tooltip title={hint}>{link}</Tooltip> : link;
}

/** The links offered for a row to this caller, side by side. */
export function RowLinks<R>({ items, row, can }: { items: readonly LinkAction<R>[]; row: R; can: Can }) {
  return (
    <Space size={0}>
      {offeredActions(items, row, can).map((a) => (
        <RowLink key={a.key} action={a} row={row} />
      ))}
    </Space>
  );
}

/** The actions column of a list (a `ListColumn`, so a ListPage takes it among its columns; not exported to CSV). */
export function linkActionsColumn<R>(def: LinkActionsDef<R>, can: Can): ListColumn<R> {
  return { title: def.title, key: 'actions', width: def.width, fixed: 'right', csv: false, render: (_: unknown, r: R) => <RowLinks items={def.items} row={r} can={can} /> };
}
