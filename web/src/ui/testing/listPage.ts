/** Reading a rendered list page in component tests: its headers, its search fields, a row's action menu. */
import { expect } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';

/** The table's column headers, in order (the selection column's is empty and left out). */
export const headers = () =>
  screen
    .getAllByRole('columnheader')
    .map((h) => h.textContent ?? '')
    .filter(Boolean);

/** The search bar's field labels, in order. */
export const searchLabels = () => [...document.querySelector('form')!.querySelectorAll('.ant-form-item-label label')].map((l) => l.textContent ?? '');

/** The row showing `text`. */
export const rowOf = async (text: string) => (await screen.findByText(text)).closest('tr')!;

/** Opens the menu of the row's split button; answers the main button and the menu's items. */
export async function openRowMenu(text: string) {
  const row = await rowOf(text);
  const buttons = within(row.querySelector('td.ant-table-cell-fix-right, td:last-child') as HTMLElement).getAllByRole('button');
  fireEvent.mouseEnter(buttons[1]);
  fireEvent.click(buttons[1]);
  // An empty menu renders no item: give it its moment, then read what is there.
  await waitFor(() => expect(document.querySelector('.ant-dropdown')).toBeTruthy());
  const items = () => [...document.querySelectorAll('.ant-dropdown:not(.ant-dropdown-hidden) [role=menuitem]')].map((i) => i.textContent ?? '');
  return { row, primary: buttons[0], items };
}

/** Confirms the open confirm dialog. */
export async function confirmDialog() {
  const dialog = await screen.findByRole('dialog');
  fireEvent.click(within(dialog).getAllByRole('button').at(-1)!);
}
