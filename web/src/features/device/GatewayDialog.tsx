/** Add or edit a gateway (spec §3 Gateway: serial number = MAC, name, nickname, type, carrier, time zone). */
import { App, Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { GATEWAY_TYPES, gatewayApi, gatewaySn, type GatewayRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { matches, rules, serverFieldErrors, trimmed } from '../sys/formRules';
import { timeZoneOptions } from './deviceOptions';
import { CarrierSelect } from './devicePickers';
import { useOffered } from '../type/useOffered';

interface Values {
  sn: string;
  name: string;
  nickname?: string;
  type: (typeof GATEWAY_TYPES)[number];
  carrierId?: number | null;
  tz: string;
}

const FIELDS = ['sn', 'name', 'nickname', 'type', 'carrierId', 'tz'];

export function GatewayDialog({ target, onClose, onDone }: { target: GatewayRow | 'new' | null; onClose: () => void; onDone: (added?: { id: number; sn: string; secret: string }) => void }) {
  const offered = useOffered();
  const { t } = useTranslation('device');
  const { message } = App.useApp();
  // A new gateway's secret goes back to the page (shown once), so its save is its own.
  const { form, row: editing, saving, submit } = useRecordDialog<GatewayRow, Values>({
    target,
    t,
    // §8 "gateway MAC already exists" comes as 420 (code exists) on the serial number.
    errors: (e) => serverFieldErrors(e, FIELDS, { 420: 'sn', 418: 'sn' }),
    values: (r) => (r === 'new' ? { type: 'gw2', tz: '+08:00' } : { ...r, type: r.type as Values['type'] }),
    onDone,
    onClose,
  });
  const save = () =>
    submit(async (v) => {
      const body = { sn: v.sn, name: trimmed(v.name), nickname: trimmed(v.nickname), type: v.type, carrierId: v.carrierId ?? null, tz: v.tz };
      if (target === 'new') {
        const added = await call(gatewayApi.add, { body });
        void message.success(t('msg.added'));
        onDone(added);
      } else {
        await call(gatewayApi.update, { body: { ...body, id: (target as GatewayRow).id } });
        void message.success(t('msg.updated'));
        onDone();
      }
      onClose();
    });
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('gateway.addTitle') : t('gateway.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="gatewayForm">
      <Form.Item
        name="sn"
        label={t('gateway.sn')}
        extra={t('gateway.snHelp')}
        normalize={(v: string) => v?.toUpperCase().replace(/[:\-\s]/g, '')}
        rules={[{ required: true, message: t('rule.required') }, matches(gatewaySn, t('rule.gatewaySn'))]}
      >
        <Input maxLength={17} disabled={target !== 'new'} />
      </Form.Item>
      <Form.Item name="name" label={t('gateway.name')} rules={rules(t, { required: true, max: 50 })}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="nickname" label={t('gateway.nickname')} rules={rules(t, { max: 50 })}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="type" label={t('gateway.type')}>
        <Select options={GATEWAY_TYPES.filter((g) => offered.gateway(g, target && target !== 'new' ? target.type : undefined)).map((g) => ({ value: g, label: t(`gatewayType.${g}`) }))} />
      </Form.Item>
      <Form.Item name="carrierId" label={t('gateway.carrier')} extra={t('gateway.carrierHelp')}>
        <CarrierSelect open={!!target} customerId={editing?.customerId} current={editing} />
      </Form.Item>
      <Form.Item name="tz" label={t('form.tz')} extra={t('form.tzHelp')}>
        <Select options={timeZoneOptions} />
      </Form.Item>
    </FormDialog>
  );
}
