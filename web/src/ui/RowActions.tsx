/**
 * A row's actions as list screens show them: a split button whose main part does the row's
 * usual thing (open its detail, switch a relay) and whose menu holds the rest, each shown only
 * to a caller holding its function codes. Also the confirm dialog those actions open.
 */
import type { ReactNode } from 'react';
import { App, Dropdown } from 'antd';
import type { ColumnType } from 'antd/es/table';

/** Whether the caller holds every code given (`useAuth().can`). */
export type Can = (...codes: string[]) => boolean;

export interface RowAction<R> {
  key: string;
  label: ReactNode | ((row: R) => ReactNode);
  /** Function codes the caller must all hold; without them the action is not offered. */
  perm?: string | readonly string[];
  /** Offered only for the rows this accepts. */
  when?: (row: R) => boolean;
  danger?: boolean;
  onClick: (row: R) => void;
}

export interface RowActionsDef<R> {
  /** Column header and width (the column is fixed on the right). */
  title: string;
  width: number;
  /** The split button's main part. */
  primary: { label: ReactNode; onClick: (row: R) => void; disabled?: boolean };
  items: RowAction<R>[];
}

/** Whether the caller holds every code of `perm` (none named: yes). */
export const held = (can: Can, perm: RowAction<unknown>['perm']) => perm === undefined || can(...(typeof perm === 'string' ? [perm] : perm));

/** The actions offered for a row to this caller, in their order (the split button's and the links' alike). */
export const offeredActions = <R, A extends Pick<RowAction<R>, 'perm' | 'when'> = RowAction<R>>(items: readonly A[], row: R, can: Can) => items.filter((a) => held(can, a.perm) && (a.when?.(row) ?? true));

export function RowActionsButton<R>({ def, row, can }: { def: RowActionsDef<R>; row: R; can: Can }) {
  const offered = offeredActions(def.items, row, can);
  return (
    <Dropdown.Button
      size="small"
      disabled={def.primary.disabled}
      onClick={() => def.primary.onClick(row)}
      menu={{
        items: offered.map((a) => ({ key: a.key, label: typeof a.label === 'function' ? a.label(row) : a.label, ...(a.danger ? { danger: true } : {}) })),
        onClick: ({ key }) => offered.find((a) => a.key === key)?.onClick(row),
      }}
    >
      {def.primary.label}
    </Dropdown.Button>
  );
}

/** The actions column of a table. */
export function actionsColumn<R>(def: RowActionsDef<R>, can: Can): ColumnType<R> {
  return { title: def.title, key: 'actions', width: def.width, fixed: 'right', render: (_: unknown, r: R) => <RowActionsButton def={def} row={r} can={can} /> };
}

/** A confirm dialog: `confirm(title, content, okText, onOk, danger = true)`, with the page's cancel text. */
export function useConfirm(cancelText: string) {
  const { modal } = App.useApp();
  return (title: string, content: ReactNode, okText: string, onOk: () => Promise<unknown>, danger = true) => modal.confirm({ title, content, okText, okButtonProps: { danger }, cancelText, onOk });
}
