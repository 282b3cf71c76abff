/**
 * Lend sensors to another customer until a time (spec §2 /sys/deviceTransfer, §3 Secondment;
 * docs/devices.md "Lending"). The sensors (of one customer, none on loan), the borrower (an
 * active customer other than the owner), the borrower's gateway they report through, the end,
 * a note. POST /service/deviceTransfer/add; every refusal shows under its field.
 */
import { useEffect, useMemo, useState } from 'react';
import { App, DatePicker, Form, Input, Select, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { customerApi, loanApi, sensorApi, type SensorRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors } from '../sys/formRules';
import { GatewaySelect } from '../device/devicePickers';
import { fromWall, toWall } from '../../lib/format';
import { useAuth } from '../../app/auth';

interface Values {
  sensorIds: number[];
  borrowerId?: number;
  gatewayId?: number;
  endsAt?: Dayjs;
  note?: string;
}

const FIELDS = ['sensorIds', 'borrowerId', 'gatewayId', 'endsAt', 'note'];

/** `sensors`: the selection to lend (may be empty: chosen in the dialog); null = closed. */
export function LendDialog({ sensors, onClose, onDone }: { sensors: SensorRow[] | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('loan');
  const { message } = App.useApp();
  const tz = useAuth().user?.timeZone;
  const [form] = Form.useForm<Values>();
  const open = sensors !== null;
  const [devSearch, setDevSearch] = useState('');
  const [custSearch, setCustSearch] = useState('');
  const [picked, setPicked] = useState<SensorRow[]>([]);
  const borrowerId = Form.useWatch('borrowerId', form);
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, {}));

  const found = useCall(sensorApi.page, { query: { iDisplayLength: 50, devNo: devSearch || undefined, borrowed: 'false' } }, { enabled: open });
  const owner = picked[0]?.customerId;
  const customers = useCall(customerApi.page, { query: { iDisplayLength: 50, name: custSearch || undefined, status: 1 } }, { enabled: open });

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setPicked(sensors);
    form.setFieldsValue({ sensorIds: sensors.map((s) => s.id), endsAt: toWall(Date.now(), tz).add(30, 'day').endOf('day') });
  }, [open, sensors, form, tz]);
  useEffect(() => form.setFieldValue('gatewayId', undefined), [borrowerId, form]);

  const sensorOptions = useMemo(() => {
    const rows = [...picked, ...(found.data?.rows ?? []).filter((r) => !picked.some((p) => p.id === r.id))];
    // Sensors lent together are one customer's: once one is chosen, the others are that customer's.
    return rows.filter((r) => owner === undefined || r.customerId === owner).map((r) => ({ value: r.id, label: `${r.devNo} · ${r.customerName}`, row: r }));
  }, [picked, found.data, owner]);

  const save = () =>
    submit(async (v) => {
      await call(loanApi.add, { body: { sensorIds: v.sensorIds, borrowerId: v.borrowerId!, gatewayId: v.gatewayId!, endsAt: fromWall(v.endsAt!, tz), note: v.note?.trim() ?? '' } });
      void message.success(t('msg.lent', { count: v.sensorIds.length }));
      onDone();
      onClose();
    });

  return (
    <FormDialog open={open} title={t('lendTitle')} okText={t('lend')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose} width={560}>
      <Typography.Paragraph type="secondary">{t('lendIntro')}</Typography.Paragraph>
      <Form form={form} name="lendForm" layout="vertical" requiredMark>
        <Form.Item name="sensorIds" label={t('col.devNo')} rules={[{ required: true, message: t('rule.sensors') }]}>
          <Select
            mode="multiple"
            showSearch={{ filterOption: false, onSearch: setDevSearch }}
            loading={found.isFetching}
            options={sensorOptions}
            onChange={(ids: number[]) => setPicked(ids.map((id) => sensorOptions.find((o) => o.value === id)!.row))}
          />
        </Form.Item>
        <Form.Item name="borrowerId" label={t('col.borrower')} rules={[{ required: true, message: t('rule.borrower') }]}>
          <Select
            showSearch={{ filterOption: false, onSearch: setCustSearch }}
            loading={customers.isFetching}
            options={(customers.data?.rows ?? []).filter((c) => c.id !== owner).map((c) => ({ value: c.id, label: c.name }))}
          />
        </Form.Item>
        <Form.Item name="gatewayId" label={t('gateway')} extra={t('gatewayHelp')} rules={[{ required: true, message: t('rule.gateway') }]}>
          <GatewaySelect open={open && !!borrowerId} customerId={borrowerId} searchable={false} disabled={!borrowerId} />
        </Form.Item>
        <Form.Item name="endsAt" label={t('col.endsAt')} rules={[{ required: true, message: t('rule.endsAt') }]}>
          <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" disabledDate={(d) => d.isBefore(toWall(Date.now(), tz), 'day')} style={{ width: 220 }} />
        </Form.Item>
        <Form.Item name="note" label={t('col.note')} rules={[{ max: 200, message: t('rule.note') }]}>
          <Input.TextArea maxLength={200} rows={2} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
