/**
 * Add or change an invalid rule: name, kind, carriers, then when (days and daily windows, a
 * start–end, or nothing more for "while in defrost"), reason, remark, enabled. Times are the
 * customer's wall clock (its time zone). The §5 rules are the contract's; the server's refusal
 * of a field lands on it.
 */
import { App, Button, Checkbox, Col, DatePicker, Form, Input, Radio, Select, Space, Switch, TimePicker } from 'antd';
import { MinusCircleOutlined, PlusOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { exReasonApi, INVALID_RULE_KINDS, invalidRuleApi, type InvalidRuleKind, type InvalidRuleRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { FormSection } from '../../ui/FormSection';
import { fromWall, toWall } from '../../lib/format';
import { serverFieldErrors, trimmed } from '../sys/formRules';
import type { Option } from '../account/shared';
import { reasonName } from '../abnormal/reasonName';
import { CarriersSelect } from './CarriersSelect';

const FIELDS = ['customerId', 'name', 'kind', 'carrierIds', 'weekdays', 'windows', 'start', 'end', 'reasonId', 'remark', 'enabled'];

interface Values {
  customerId?: number;
  name: string;
  kind: InvalidRuleKind;
  carrierIds: number[];
  weekdays: number[];
  windows: [Dayjs, Dayjs][];
  period?: [Dayjs, Dayjs];
  reasonId?: number | null;
  remark?: string;
  enabled: boolean;
}

const minutesOf = (d: Dayjs) => d.hour() * 60 + d.minute();
const atMinutes = (m: number) => dayjs().startOf('day').add(m, 'minute');

interface Props {
  target: InvalidRuleRow | 'new' | null;
  /** The time zone of a new rule's customer (the caller's). */
  timeZone: string | null;
  customers?: Option[];
  onClose: () => void;
  onDone: () => void;
}

export function InvalidRuleDialog({ target, timeZone, customers, onClose, onDone }: Props) {
  const { t, i18n } = useTranslation('invalidRule');
  const { message } = App.useApp();
  const { form, row, saving, submit } = useRecordDialog<InvalidRuleRow, Values>({
    target,
    t,
    onDone,
    onClose,
    errors: (e) => serverFieldErrors(e, FIELDS, { 418: 'name' }).map((f) => (f.name === 'start' || f.name === 'end' ? { ...f, name: 'period' } : f)),
    values: (r) =>
      r === 'new'
        ? { kind: 'schedule', weekdays: [1, 2, 3, 4, 5, 6, 7], windows: [[atMinutes(120), atMinutes(150)]], enabled: true, carrierIds: [] }
        : {
            ...r,
            carrierIds: r.carriers.map((c) => c.id),
            windows: r.windows.map((w) => [atMinutes(w.from), atMinutes(w.to)] as [Dayjs, Dayjs]),
            period: r.start !== null && r.end !== null ? [toWall(r.start, r.timeZone), toWall(r.end, r.timeZone)] : undefined,
          },
  });
  const tz = row?.timeZone ?? timeZone;
  const kind = Form.useWatch('kind', form);
  const customerId = Form.useWatch('customerId', form) ?? row?.customerId;
  const reasons = useCall(exReasonApi.options, { query: { customerId } }, { enabled: !!target });

  const save = () =>
    submit(async (v) => {
      const body = {
        name: trimmed(v.name),
        kind: v.kind,
        carrierIds: v.carrierIds,
        weekdays: v.kind === 'schedule' ? v.weekdays : [],
        windows: v.kind === 'schedule' ? (v.windows ?? []).map(([a, b]) => ({ from: minutesOf(a), to: minutesOf(b) })) : [],
        start: v.kind === 'period' && v.period ? fromWall(v.period[0], tz) : null,
        end: v.kind === 'period' && v.period ? fromWall(v.period[1], tz) : null,
        reasonId: v.reasonId ?? null,
        remark: trimmed(v.remark),
        enabled: !!v.enabled,
      };
      if (row) await call(invalidRuleApi.update, { body: { ...body, id: row.id } });
      else await call(invalidRuleApi.add, { body: { ...body, customerId: v.customerId } });
      void message.success(row ? t('msg.updated') : t('msg.added'));
      onDone();
      onClose();
    });

  return (
    <FormDialog
      open={!!target}
      title={row ? t('form.editTitle') : t('form.addTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={save}
      onCancel={onClose}
      form={form}
      formName="invalidRuleForm"
      width={720}
      scrollBody
    >
      <FormSection title={t('form.basics')} first>
        {customers && !row && (
          <Col span={24}>
            <Form.Item name="customerId" label={t('form.customer')} rules={[{ required: true, message: t('form.customerRequired') }]}>
              <Select showSearch={{ optionFilterProp: 'label' }} options={customers} onChange={() => form.setFieldsValue({ carrierIds: [], reasonId: null })} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('form.name')} rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }, { max: 50, message: t('form.max50') }]}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="kind" label={t('form.kind')} rules={[{ required: true }]}>
            <Radio.Group optionType="button" options={INVALID_RULE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) }))} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="carrierIds" label={t('form.carriers')} rules={[{ required: true, type: 'array', min: 1, message: t('form.carriersRequired') }]}>
            <CarriersSelect open={!!target} customerId={customerId} current={row?.carriers ?? []} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title={t('form.whenTitle')} hint={t('form.whenHint', { tz: tz ?? '' })}>
        {kind === 'schedule' && (
          <>
            <Col span={24}>
              <Form.Item name="weekdays" label={t('form.weekdays')} rules={[{ required: true, type: 'array', min: 1, message: t('form.weekdaysRequired') }]}>
                <Checkbox.Group options={[1, 2, 3, 4, 5, 6, 7].map((d) => ({ value: d, label: t(`weekday.${d}`) }))} />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item label={t('form.windows')} required extra={t('form.windowsHint')}>
                <Form.List name="windows">
                  {(items, { add, remove }) => (
                    <Space orientation="vertical" style={{ width: '100%' }}>
                      {items.map((item) => (
                        <Space key={item.key} align="baseline">
                          <Form.Item name={item.name} noStyle rules={[{ required: true, message: t('form.windowRequired') }]}>
                            <TimePicker.RangePicker format="HH:mm" order={false} minuteStep={5} />
                          </Form.Item>
                          {items.length > 1 && <MinusCircleOutlined aria-label={t('action.delete')} onClick={() => remove(item.name)} />}
                        </Space>
                      ))}
                      {items.length < 8 && (
                        <Button type="dashed" size="small" icon={<PlusOutlined />} onClick={() => add([atMinutes(0), atMinutes(30)])}>
                          {t('form.addWindow')}
                        </Button>
                      )}
                    </Space>
                  )}
                </Form.List>
              </Form.Item>
            </Col>
          </>
        )}
        {kind === 'period' && (
          <Col span={24}>
            <Form.Item name="period" label={t('form.period')} rules={[{ required: true, message: t('form.periodRequired') }]}>
              <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
            </Form.Item>
          </Col>
        )}
        {kind === 'defrost' && (
          <Col span={24}>
            <p style={{ color: '#8c8c8c', marginTop: 0 }}>{t('form.defrostHint')}</p>
          </Col>
        )}
        <Col xs={24} sm={12}>
          <Form.Item name="reasonId" label={t('form.reason')} extra={t('form.reasonHint')}>
            <Select allowClear loading={reasons.isFetching} options={(reasons.data ?? []).map((r) => ({ value: r.id, label: reasonName(r, i18n.language) }))} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="remark" label={t('form.remark')} rules={[{ max: 250, message: t('form.max250') }]}>
            <Input.TextArea maxLength={250} rows={2} />
          </Form.Item>
        </Col>
      </FormSection>
    </FormDialog>
  );
}
