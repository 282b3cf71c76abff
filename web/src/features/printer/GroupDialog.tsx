import { useEffect } from 'react';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { carrierApi, contactApi, REPORT_LOCALES, printGroupApi, REPORT_LIMITS, REPORT_SCHEDULES, type PrintGroupRow, type ReportSchedule } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useAction, useCall } from '../../api/hooks';
import { serverFieldErrors } from '../sys/formRules';

interface Values {
  groupName: string;
  carrierIds: number[];
  schedule: ReportSchedule;
  contactIds: number[];
  locale: (typeof REPORT_LOCALES)[number];
}

const INVALIDATES = [printGroupApi.list];

/**
 * A print group added or changed (spec §7 addPrintGroup, save, updateGroupName): its name
 * (checked as typed with checkPrintGroup, §8 "existing group"), its carriers in print order,
 * and its schedule with the contacts that receive it by e-mail.
 */
export function GroupDialog({ target, onClose }: { target: PrintGroupRow | 'new' | null; onClose: () => void }) {
  const { t } = useTranslation('printer');
  const [form] = Form.useForm<Values>();
  const open = !!target;
  const schedule = Form.useWatch('schedule', form) ?? 'none';
  const carriers = useCall(carrierApi.page, { query: { iDisplayLength: 100 } }, { enabled: open });
  const contacts = useCall(contactApi.page, { query: { iDisplayLength: 100 } }, { enabled: open });
  const failed = (e: unknown) => {
    const fields = serverFieldErrors(e, ['groupName', 'carrierIds', 'contactIds', 'schedule'], { 418: 'groupName' });
    if (fields.length) form.setFields(fields as Parameters<typeof form.setFields>[0]);
    return fields.length > 0;
  };
  const add = useAction(printGroupApi.add, { success: t('msg.added'), invalidates: INVALIDATES, onDone: onClose, onFailed: failed });
  const save = useAction(printGroupApi.save, { success: t('msg.saved'), invalidates: INVALIDATES, onDone: onClose, onFailed: failed });
  const rename = useAction(printGroupApi.rename, { success: false, onFailed: failed });

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target === 'new') form.setFieldsValue({ groupName: '', carrierIds: [], schedule: 'none', contactIds: [], locale: 'zh-CN' });
    else form.setFieldsValue({ groupName: target.groupName, carrierIds: target.carriers.map((c) => c.id), schedule: target.schedule, contactIds: target.contacts.map((c) => c.id), locale: target.locale });
  }, [target, form]);

  const submit = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const members = { carrierIds: v.carrierIds, schedule: v.schedule, contactIds: v.schedule === 'none' ? v.contactIds ?? [] : v.contactIds, locale: v.locale };
    if (target === 'new') await add.run({ body: { groupName: v.groupName.trim(), ...members } });
    else if (target) {
      if (v.groupName.trim() !== target.groupName && !(await rename.run({ body: { id: target.id, groupName: v.groupName.trim() } }))) return;
      await save.run({ body: { id: target.id, ...members } });
    }
  };

  /** §8 "existing group", asked as the name is typed (the server answers it again on save). */
  const nameFree = async (_: unknown, value: string) => {
    const name = (value ?? '').trim();
    if (!name || (target !== 'new' && target && name === target.groupName)) return;
    const r = await call(printGroupApi.check, { query: { groupName: name, ...(target && target !== 'new' ? { id: target.id } : {}) } }).catch(() => ({ exists: false }));
    if (r.exists) throw new Error(t('form.nameExists'));
  };

  return (
    <Modal
      open={open}
      title={target === 'new' ? t('form.addTitle') : t('form.editTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      confirmLoading={add.busy || save.busy || rename.busy}
      onOk={() => void submit()}
      onCancel={onClose}
      width={560}
      style={{ top: '8vh' }}
      destroyOnHidden
      forceRender
    >
      <Form form={form} name="printGroupForm" layout="vertical">
        <Form.Item
          name="groupName"
          label={t('form.name')}
          validateDebounce={300}
          rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }, { max: REPORT_LIMITS.groupName, message: t('form.nameMax', { n: REPORT_LIMITS.groupName }) }, { validator: nameFree }]}
        >
          <Input maxLength={REPORT_LIMITS.groupName} />
        </Form.Item>
        <Form.Item
          name="carrierIds"
          label={t('form.carriers')}
          extra={t('form.carriersHelp', { n: REPORT_LIMITS.carriers })}
          rules={[{ required: true, type: 'array', min: 1, message: t('form.carriersRequired') }, { type: 'array', max: REPORT_LIMITS.carriers, message: t('form.carriersMax', { n: REPORT_LIMITS.carriers }) }]}
        >
          <Select mode="multiple" loading={carriers.isLoading} optionFilterProp="label" options={(carriers.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name }))} />
        </Form.Item>
        <Form.Item name="schedule" label={t('form.schedule')} extra={t('form.scheduleHelp')}>
          <Select options={REPORT_SCHEDULES.map((s) => ({ value: s, label: t(`schedule.${s}`) }))} />
        </Form.Item>
        <Form.Item
          name="contactIds"
          label={t('form.contacts')}
          extra={t('form.contactsHelp')}
          rules={[
            { type: 'array', max: REPORT_LIMITS.contacts, message: t('form.contactsMax', { n: REPORT_LIMITS.contacts }) },
            ...(schedule !== 'none' ? [{ required: true, type: 'array' as const, min: 1, message: t('form.contactsRequired') }] : []),
          ]}
        >
          <Select
            mode="multiple"
            loading={contacts.isLoading}
            optionFilterProp="label"
            options={(contacts.data?.rows ?? []).map((c) => ({ value: c.id, label: c.email ? `${c.name} <${c.email}>` : c.name, disabled: !c.email }))}
          />
        </Form.Item>
        <Form.Item name="locale" label={t('form.locale')}>
          <Select options={REPORT_LOCALES.map((l) => ({ value: l, label: t(`locale.${l}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
