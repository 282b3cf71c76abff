/**
 * Form sections of the add/edit dialogs of the devices whose catalogues word them alike (smart
 * bases, displays, relays: `col.devNo`, `col.name`, `col.gateway`, `col.carrier`, `rule.*` in
 * their own namespace): the number and name, and where the device hangs (its gateway, required)
 * and what it serves (its carrier). The page passes its `t`; the rules are the contract's.
 */
import { Form, Input } from 'antd';
import type { TFunction } from 'i18next';
import { deviceNo } from '@coldwatch/contract';
import { matches, rules } from '../sys/formRules';
import { CarrierSelect, GatewaySelect, type Carried, type OnGateway } from './devicePickers';

/** The device's number (letters and digits, required) and name (required, 50 at most). */
export function DeviceNameFields({ t }: { t: TFunction }) {
  return (
    <>
      <Form.Item name="devNo" label={t('col.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.devNo'))]}>
        <Input maxLength={30} />
      </Form.Item>
      <Form.Item name="name" label={t('col.name')} rules={rules(t, { required: true, max: 50 })}>
        <Input maxLength={50} />
      </Form.Item>
    </>
  );
}

export interface DeviceBindingProps {
  t: TFunction;
  /** The dialog is open (the pickers load). */
  open: boolean;
  /** The device edited (null when adding): its customer's gateways and carriers, its current ones. */
  device: (OnGateway & Carried & { customerId: number }) | null;
  /** Help under each picker, where the page has some. */
  gatewayHelp?: string;
  carrierHelp?: string;
  /** Gateways searched by serial number (the relay's long lists). */
  searchGateways?: boolean;
}

/** The gateway the device reports through (required) and the carrier it is bound to (optional). */
export function DeviceBindingFields({ t, open, device, gatewayHelp, carrierHelp, searchGateways = false }: DeviceBindingProps) {
  return (
    <>
      <Form.Item name="gatewayId" label={t('col.gateway')} extra={gatewayHelp} rules={[{ required: true, message: t('rule.required') }]}>
        <GatewaySelect open={open} customerId={device?.customerId} current={device} searchable={searchGateways} />
      </Form.Item>
      <Form.Item name="carrierId" label={t('col.carrier')} extra={carrierHelp}>
        <CarrierSelect open={open} customerId={device?.customerId} current={device} />
      </Form.Item>
    </>
  );
}
