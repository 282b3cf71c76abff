// @vitest-environment jsdom
/**
 * The device dialogs' gateway and carrier pickers: they load once the dialog is open, from the
 * customer given, search on the server, keep the current choice labelled when the answer does
 * not list it, and give the form the id picked (a required item passes once one is picked).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, waitFor, within } from '@testing-library/react';
import { Form } from 'antd';
import { carrierApi, gatewayApi } from '@coldwatch/contract';
import { FormDialog } from '../../ui/FormDialog';
import { dialog, pick, save } from '../../ui/testing/dialog';
import { renderSignedIn, serverAnswers, type Call } from '../../ui/testing/render';
import { CarrierSelect, GatewaySelect, withCurrent, type Carried, type OnGateway } from './devicePickers';

const GATEWAYS = [
  { id: 2, sn: 'A1B2C3D4E5F6', name: 'Ward' },
  { id: 3, sn: 'A1B2C3D4E5F7', name: 'Store' },
];
const CARRIERS = [{ id: 5, name: 'Fridge 1', sceneLabel: 'Pharmacy' }];
const answers = {
  [gatewayApi.page.path]: (c: Call) => ({ total: 2, rows: GATEWAYS.filter((g) => !c.query.sn || g.sn.endsWith(c.query.sn)) }),
  [carrierApi.page.path]: { total: 1, rows: CARRIERS },
};
const device: OnGateway & Carried = { gatewayId: 9, gatewaySn: 'A1B2C3D4E5F9', gatewayName: 'Old', carrierId: 8, carrierName: 'Freezer' };

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Harness({ open = true, current, onSaved }: { open?: boolean; current?: typeof device; onSaved?: (v: unknown) => void }) {
  const [form] = Form.useForm();
  return (
    <FormDialog open={open} title="Device" okText="Save" saving={false} onSubmit={() => form.validateFields().then(onSaved, () => undefined)}>
      <Form form={form} layout="vertical" initialValues={current && { gatewayId: current.gatewayId, carrierId: current.carrierId }}>
        <Form.Item name="gatewayId" label="Gateway" rules={[{ required: true, message: 'Pick a gateway' }]}>
          <GatewaySelect open={open} customerId={current ? 1 : undefined} current={current} />
        </Form.Item>
        <Form.Item name="carrierId" label="Carrier">
          <CarrierSelect open={open} customerId={current ? 1 : undefined} current={current} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}

const options = () => [...document.querySelectorAll('.ant-select-item-option')].map((o) => o.textContent);

describe('device pickers', () => {
  it('keeps the current choice first and labelled when the options do not hold it', () => {
    const loaded = [{ value: 2, label: 'A' }];
    expect(withCurrent(loaded, { value: 9, label: 'Old' })).toEqual([{ value: 9, label: 'Old' }, ...loaded]);
    expect(withCurrent(loaded, { value: 2, label: 'A' })).toBe(loaded);
    expect(withCurrent(loaded, null)).toBe(loaded);
  });

  it('loads nothing while the dialog is closed', () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<Harness open={false} />);
    expect(calls).toEqual([]);
  });

  it('refuses to save without a gateway, and saves the one picked', async () => {
    serverAnswers(answers);
    const saved = vi.fn();
    renderSignedIn(<Harness onSaved={saved} />);
    save();
    expect(await within(dialog()).findByText('Pick a gateway')).toBeTruthy();
    expect(saved).not.toHaveBeenCalled();
    await pick('Gateway', 'A1B2C3D4E5F7 · Store');
    await pick('Carrier', 'Fridge 1 · Pharmacy');
    save();
    await waitFor(() => expect(saved).toHaveBeenCalledWith({ gatewayId: 3, carrierId: 5 }));
  });

  it("loads from the edited device's customer and shows its current gateway and carrier", async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<Harness current={device} />);
    expect(await within(dialog()).findByText('A1B2C3D4E5F9 · Old')).toBeTruthy();
    expect(within(dialog()).getByText('Freezer')).toBeTruthy();
    await waitFor(() => expect(calls.find((c) => c.path === gatewayApi.page.path)?.query).toEqual({ iDisplayLength: '100', customerId: '1' }));
    expect(calls.find((c) => c.path === carrierApi.page.path)?.query).toEqual({ iDisplayLength: '100', customerId: '1' });
    fireEvent.mouseDown(within(dialog()).getByLabelText('Gateway').closest('.ant-select')!);
    await waitFor(() => expect(options()).toEqual(['A1B2C3D4E5F9 · Old', 'A1B2C3D4E5F6 · Ward', 'A1B2C3D4E5F7 · Store']));
  });

  it('searches gateways by serial number on the server', async () => {
    const calls = serverAnswers(answers);
    renderSignedIn(<Harness />);
    const input = within(dialog()).getByLabelText('Gateway');
    fireEvent.mouseDown(input.closest('.ant-select')!);
    fireEvent.change(input, { target: { value: 'F7' } });
    await waitFor(() => expect(calls.some((c) => c.path === gatewayApi.page.path && c.query.sn === 'F7')).toBe(true));
    await waitFor(() => expect(options()).toEqual(['A1B2C3D4E5F7 · Store']));
  });
});
