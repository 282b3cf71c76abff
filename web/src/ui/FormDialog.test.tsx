// @vitest-environment jsdom
/**
 * The add/edit dialog's form (useRecordDialog): filled as it opens (a new record's defaults, the
 * row edited), refilled when it opens on another; a save that fails a rule sends nothing; a valid
 * one calls add (new) or update (with the row's id), toasts, reloads and closes; a refusal that
 * names a field goes onto it and one that does not is toasted, the dialog staying open.
 */
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { contactApi, type ContactRow } from '@coldwatch/contract';
import { ApiError } from '../api/client';
import { FormDialog, useRecordDialog } from './FormDialog';
import { dialog, fill, save } from './testing/dialog';
import { renderSignedIn, serverAnswers, type Call } from './testing/render';

const ROW = { id: 4, name: 'Ann Lee', gender: 0, alarmLevel: 2 } as ContactRow;
const OTHER = { id: 5, name: 'Bo Chen', gender: 1, alarmLevel: 3 } as ContactRow;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

interface Values {
  name: string;
}

function Harness({ first, onDone, onClose }: { first: ContactRow | 'new'; onDone: () => void; onClose: () => void }) {
  const { t } = useTranslation('contact');
  const [target, setTarget] = useState<ContactRow | 'new' | null>(first);
  const d = useRecordDialog<ContactRow, Values>({
    target,
    t,
    errors: (e) => (e instanceof ApiError && e.code === 422 ? [{ name: 'name', errors: [e.message] }] : []),
    values: (r) => (r === 'new' ? { name: 'New contact' } : { name: r.name }),
    onDone,
    onClose: () => {
      onClose();
      setTarget(null);
    },
  });
  const submit = () => d.save({ ...contactApi, added: 'Contact added', updated: 'Contact saved' }, (v) => ({ name: v.name.trim(), gender: 1 as const, alarmLevel: 1 }));
  return (
    <>
      <Button onClick={() => setTarget(OTHER)}>Open Bo</Button>
      <FormDialog open={!!target} title="Contact" okText="Save" saving={d.saving} onSubmit={submit} onCancel={() => setTarget(null)}>
        <Form form={d.form} layout="vertical">
          <Form.Item name="name" label="Name" rules={[{ required: true, whitespace: true, message: 'A name, please' }]}>
            <Input />
          </Form.Item>
        </Form>
      </FormDialog>
    </>
  );
}

const name = () => (within(dialog()).getByLabelText('Name') as HTMLInputElement).value;
const sent = (calls: Call[], path: string) => calls.filter((c) => c.path === path).map((c) => c.body);

describe('useRecordDialog', () => {
  it('a new record: its defaults; a blank name sends nothing; a valid one is added, toasted, and the dialog closes', async () => {
    const calls = serverAnswers({ [contactApi.add.path]: { id: 9 } });
    const done = vi.fn();
    const closed = vi.fn();
    renderSignedIn(<Harness first="new" onDone={done} onClose={closed} />);
    await waitFor(() => expect(name()).toBe('New contact'));
    fill('Name', '   ');
    save();
    expect(await within(dialog()).findByText('A name, please')).toBeTruthy();
    expect(sent(calls, contactApi.add.path)).toEqual([]);
    fill('Name', ' Cai Wu ');
    save();
    await waitFor(() => expect(closed).toHaveBeenCalledTimes(1));
    expect(sent(calls, contactApi.add.path)).toEqual([{ name: 'Cai Wu', gender: 1, alarmLevel: 1 }]);
    expect(sent(calls, contactApi.update.path)).toEqual([]);
    expect(done).toHaveBeenCalledTimes(1);
    expect(await screen.findByText('Contact added')).toBeTruthy();
  });

  it('a row: filled with it, updated with its id; opening on another row fills that one', async () => {
    const calls = serverAnswers({ [contactApi.update.path]: null });
    const done = vi.fn();
    renderSignedIn(<Harness first={ROW} onDone={done} onClose={() => {}} />);
    await waitFor(() => expect(name()).toBe('Ann Lee'));
    save();
    await waitFor(() => expect(sent(calls, contactApi.update.path)).toEqual([{ name: 'Ann Lee', gender: 1, alarmLevel: 1, id: 4 }]));
    expect(await screen.findByText('Contact saved')).toBeTruthy();
    expect(done).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Open Bo' }));
    await waitFor(() => expect(name()).toBe('Bo Chen'));
  });

  it('a refusal naming a field goes onto it; one naming none is toasted; the dialog stays open', async () => {
    let code = 422;
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(JSON.stringify({ state: { code, msg: code === 422 ? 'That name is taken' : 'Out of service' }, result: null }), { headers: { 'content-type': 'application/json' } })),
    );
    const done = vi.fn();
    const closed = vi.fn();
    renderSignedIn(<Harness first={ROW} onDone={done} onClose={closed} />);
    await waitFor(() => expect(name()).toBe('Ann Lee'));
    save();
    expect(await within(dialog()).findByText('That name is taken')).toBeTruthy();
    code = 500001;
    fill('Name', 'Ann Li');
    save();
    expect(await screen.findByText('Out of service')).toBeTruthy();
    expect(done).not.toHaveBeenCalled();
    expect(closed).not.toHaveBeenCalled();
    expect(dialog()).toBeTruthy();
  });
});
