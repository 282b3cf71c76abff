import { expect } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';

/** Reaching into the open form dialog of a component test (FormDialog: its fields, Save, selects). */
export const dialog = () => screen.getByRole('dialog');
export const fill = (label: string, value: string) => fireEvent.change(within(dialog()).getByLabelText(label), { target: { value } });
export const save = () => fireEvent.click(within(dialog()).getByRole('button', { name: 'Save' }));

/**
 * Opens the select labelled `label`, once it is enabled (its options may still be loading), and
 * clicks the option whose text is `option` (or that `option` accepts).
 */
export async function pick(label: string, option: string | ((text: string) => boolean)) {
  const matches = typeof option === 'string' ? (text: string) => text === option : option;
  const select = within(dialog()).getByLabelText(label).closest('.ant-select')!;
  await waitFor(() => expect(select.classList.contains('ant-select-disabled')).toBe(false));
  fireEvent.mouseDown(select);
  const found = await waitFor(() => {
    const o = [...document.querySelectorAll('.ant-select-item-option')].find((e) => matches(e.textContent ?? ''));
    expect(o).toBeTruthy();
    return o!;
  });
  fireEvent.click(found);
}
