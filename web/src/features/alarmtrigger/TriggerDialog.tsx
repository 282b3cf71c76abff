/** An alarm trigger's form (spec §3 Alarm trigger; §5: time points 30 minutes apart, at most seven, a weekday, repeat interval of whole minutes). */
import { useEffect } from 'react';
import { App, Checkbox, Col, Divider, Form, Input, InputNumber, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import {
  ALARM_DEFAULTS, ALARM_LEVELS, EXCEPTION_CATEGORIES, NOTICE_CHANNELS, TRIGGER_NOTICE_TYPES, WEEKDAYS, alarmTriggerApi, carrierApi, contactApi, timePointsFault,
  type AlarmTriggerRow,
} from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors } from '../sys/formRules';

type Values = Omit<AlarmTriggerRow, 'id' | 'customerId' | 'customerName' | 'contactNames' | 'carrierNames' | 'updatedAt' | 'windows'> & { windows: string[] };
const FIELDS = ['name', 'categories', 'channels', 'contactIds', 'groupNames', 'levels', 'reason', 'windows', 'weekdays', 'offChannels', 'offLevels', 'timePoints', 'delayS', 'tempMargin', 'humMargin', 'repeatTimes', 'repeatIntervalMin', 'escalateAfterMin', 'noticeType', 'carrierIds'] as const;
const NEW: Partial<Values> = {
  categories: [...EXCEPTION_CATEGORIES], channels: ['email'], contactIds: [], groupNames: [], levels: [], windows: [], weekdays: [...WEEKDAYS], offChannels: [], offLevels: [],
  timePoints: [], delayS: ALARM_DEFAULTS.delayS, tempMargin: ALARM_DEFAULTS.tempMargin, humMargin: ALARM_DEFAULTS.humMargin, repeatTimes: 0, repeatIntervalMin: 30, escalateAfterMin: 0, noticeType: 'open', reason: '',
};
const WINDOW = /^([01]\d|2[0-3]):[0-5]\d-([01]\d|2[0-3]):[0-5]\d$/;

export function TriggerDialog({ target, onClose, onDone }: { target: AlarmTriggerRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('alarmTrigger');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, {}));
  const open = !!target;
  const contacts = useCall(contactApi.page, { query: { iDisplayLength: 100 } }, { enabled: open });
  const carriers = useCall(carrierApi.page, { query: { iDisplayLength: 100 } }, { enabled: open });
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? NEW : { ...target, windows: target.windows.map((w) => `${w.start}-${w.end}`) });
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { ...v, windows: (v.windows ?? []).map((w) => ({ start: w.slice(0, 5), end: w.slice(6, 11) })) } as never;
      if (target === 'new') await call(alarmTriggerApi.add, { body });
      else await call(alarmTriggerApi.update, { body: { ...(body as object), id: target!.id } as never });
      void message.success(t('msg.saved'));
      onDone();
      onClose();
    });
  const opts = <T extends string | number>(xs: readonly T[], label: (x: T) => string) => xs.map((x) => ({ value: x, label: label(x) }));
  const channels = opts(NOTICE_CHANNELS, (c) => t(`channel.${c}`));
  const levels = opts(ALARM_LEVELS, (l) => t('level', { n: l }));
  return (
    <FormDialog open={open} title={target === 'new' ? t('form.addTitle') : t('form.editTitle')} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} onSubmit={save} onCancel={onClose} width={820}>
      <Form form={form} name="alarmTriggerForm" layout="vertical" requiredMark>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('form.name')} rules={[{ required: true, max: 50, message: t('rule.name') }]}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="noticeType" label={t('form.noticeType')}>
              <Radio.Group options={opts(TRIGGER_NOTICE_TYPES, (n) => t(`noticeType.${n}`))} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="categories" label={t('form.categories')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.categories') }]}>
          <Select mode="multiple" options={opts(EXCEPTION_CATEGORIES, (c) => t(`category.${c}`))} />
        </Form.Item>
        <Form.Item name="carrierIds" label={t('form.carriers')}>
          <Select mode="multiple" optionFilterProp="label" options={(carriers.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name }))} />
        </Form.Item>
        <Divider titlePlacement="start" plain>{t('form.who')}</Divider>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="channels" label={t('form.channels')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.channels') }]}>
              <Checkbox.Group options={channels} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="levels" label={t('form.levels')} extra={t('form.levelsHelp')}>
              <Checkbox.Group options={levels} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="contactIds" label={t('form.contacts')} extra={t('form.contactsHelp')}>
              <Select mode="multiple" optionFilterProp="label" options={(contacts.data?.rows ?? []).map((c) => ({ value: c.id, label: `${c.name} · L${c.alarmLevel}` }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="groupNames" label={t('form.groups')}>
              <Select mode="tags" options={[...new Set((contacts.data?.rows ?? []).map((c) => c.groupName).filter(Boolean))].map((g) => ({ value: g, label: g }))} />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>{t('form.when')}</Divider>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="weekdays" label={t('form.weekdays')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.weekdays') }]}>
              <Checkbox.Group options={opts(WEEKDAYS, (d) => t(`weekday.${d}`))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="windows" label={t('form.windows')} extra={t('form.windowsHelp')} rules={[{ validator: async (_r, v: string[] = []) => (v.every((w) => WINDOW.test(w)) ? undefined : Promise.reject(new Error(t('rule.window')))) }]}>
              <Select mode="tags" placeholder="22:00-06:00" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="offChannels" label={t('form.offChannels')} extra={t('form.offChannelsHelp')}>
              <Checkbox.Group options={channels} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="offLevels" label={t('form.offLevels')}>
              <Checkbox.Group options={levels} />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>{t('form.howOften')}</Divider>
        <Row gutter={16}>
          <Col xs={12} sm={6}>
            <Form.Item name="repeatTimes" label={t('form.repeatTimes')}>
              <InputNumber min={0} max={10} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="repeatIntervalMin" label={t('form.repeatInterval')} rules={[{ required: true, type: 'number', min: 1, max: 1440, message: t('rule.repeatInterval') }]}>
              <InputNumber precision={0} addonAfter={t('min')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item name="escalateAfterMin" label={t('form.escalate')} extra={t('form.escalateHelp')}>
              <InputNumber min={0} max={1440} precision={0} addonAfter={t('min')} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={12} sm={6}>
            <Form.Item
              name="timePoints"
              label={t('form.timePoints')}
              rules={[{ validator: async (_r, v: string[] = []) => { const f = timePointsFault(v); return f ? Promise.reject(new Error(t(`rule.${f.split('.').pop()}`))) : undefined; } }]}
            >
              <Select mode="tags" placeholder="08:00" />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="delayS" label={t('form.delay')}>
              <InputNumber min={0} max={86400} precision={0} addonAfter="s" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="tempMargin" label={t('form.tempMargin')}>
              <InputNumber min={0} max={10} step={0.1} addonAfter="°C" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="humMargin" label={t('form.humMargin')}>
              <InputNumber min={0} max={10} step={0.5} addonAfter="%RH" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item name="reason" label={t('form.reason')}>
          <Input.TextArea maxLength={250} rows={2} />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
