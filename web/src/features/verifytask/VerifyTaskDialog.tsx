/**
 * Add or change a verification task: the monitoring point and its probes (the points, one of them
 * the centre), the set points, the start, record start and end in the customer's time zone, the
 * sampling frequency, the timeouts and the notices. The §5 rules are the contract's; the server's
 * refusal of a field (a set point out of the probes' range, a device of another carrier) lands on it.
 */
import { useMemo, useState } from 'react';
import { Checkbox, Col, DatePicker, Form, Input, InputNumber, Select, Space } from 'antd';
import type { Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { carrierApi, sensorApi, verifyTaskApi, type VerifyTaskRow } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { FormSection } from '../../ui/FormSection';
import { fromWall, toWall } from '../../lib/format';
import { serverFieldErrors, trimmed } from '../sys/formRules';

const FIELDS = ['name', 'carrierId', 'sensorIds', 'centreSensorId', 'setpoint', 'humSetpoint', 'startTime', 'recordStart', 'endTime', 'intervalS', 'dataDelayMin', 'offlineDelayMin', 'conditions', 'description'];

interface Values {
  name: string;
  carrierId?: number;
  sensorIds: number[];
  centreSensorId?: number | null;
  setpoint: number;
  humSetpoint?: number | null;
  period: [Dayjs, Dayjs];
  recordStart?: Dayjs | null;
  intervalS: number;
  dataDelayMin: number;
  offlineDelayMin: number;
  conditions?: string;
  description?: string;
  notices: ('notifyComplete' | 'notifyTimeout' | 'notifyException')[];
}

const NOTICES = ['notifyComplete', 'notifyTimeout', 'notifyException'] as const;

interface Props {
  target: VerifyTaskRow | 'new' | null;
  timeZone: string | null;
  onClose: () => void;
  onDone: () => void;
}

export function VerifyTaskDialog({ target, timeZone, onClose, onDone }: Props) {
  const { t } = useTranslation('verifyTask');
  const { form, row, saving, save } = useRecordDialog<VerifyTaskRow, Values>({
    target,
    t,
    onDone,
    onClose,
    errors: (e) => serverFieldErrors(e, FIELDS, {}).map((f) => (f.name === 'startTime' || f.name === 'endTime' ? { ...f, name: 'period' } : f)),
    values: (r) =>
      r === 'new'
        ? { sensorIds: [], setpoint: 5, intervalS: 60, dataDelayMin: 30, offlineDelayMin: 60, notices: [...NOTICES] }
        : {
            ...r,
            sensorIds: r.devices.map((d) => d.id),
            period: [toWall(r.startTime, timeZone), toWall(r.endTime, timeZone)],
            recordStart: toWall(r.recordStart, timeZone),
            notices: NOTICES.filter((n) => r[n]),
          },
  });
  const [search, setSearch] = useState('');
  const carrierId = Form.useWatch('carrierId', form);
  const chosen = Form.useWatch('sensorIds', form);
  const carriers = useCall(carrierApi.page, { query: { iDisplayLength: 100, name: search || undefined } }, { enabled: !!target });
  const probes = useCall(sensorApi.page, { query: { iDisplayLength: 100, carrierId } }, { enabled: !!target && !!carrierId });
  const carrierOptions = useMemo(() => {
    const listed = (carriers.data?.rows ?? []).map((c) => ({ value: c.id, label: `${c.name} · ${c.sceneLabel}` }));
    return row && !listed.some((o) => o.value === row.carrierId) ? [{ value: row.carrierId, label: row.carrierName }, ...listed] : listed;
  }, [carriers.data, row]);
  const probeOptions = (probes.data?.rows ?? []).map((s) => ({ value: s.id, label: s.devNo }));
  const centreOptions = probeOptions.filter((o) => (chosen ?? []).includes(o.value));

  const submit = () =>
    save({ add: verifyTaskApi.add, update: verifyTaskApi.update, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      name: trimmed(v.name),
      carrierId: v.carrierId!,
      sensorIds: v.sensorIds,
      centreSensorId: v.centreSensorId ?? null,
      setpoint: v.setpoint,
      humSetpoint: v.humSetpoint ?? null,
      startTime: fromWall(v.period[0], timeZone),
      endTime: fromWall(v.period[1], timeZone),
      recordStart: v.recordStart ? fromWall(v.recordStart, timeZone) : null,
      intervalS: v.intervalS,
      dataDelayMin: v.dataDelayMin,
      offlineDelayMin: v.offlineDelayMin,
      conditions: trimmed(v.conditions),
      description: trimmed(v.description),
      notifyComplete: v.notices.includes('notifyComplete'),
      notifyTimeout: v.notices.includes('notifyTimeout'),
      notifyException: v.notices.includes('notifyException'),
    }));

  const required = [{ required: true, message: t('form.required') }];
  return (
    <FormDialog
      open={!!target}
      title={row ? t('form.editTitle') : t('form.addTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={submit}
      onCancel={onClose}
      form={form}
      formName="verifyTaskForm"
      width={760}
      scrollBody
    >
      <FormSection title={t('form.basics')} first>
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('form.name')} rules={[{ required: true, whitespace: true, message: t('form.nameRequired') }, { max: 50, message: t('form.max50') }]}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="carrierId" label={t('form.carrier')} rules={[{ required: true, message: t('form.carrierRequired') }]}>
            <Select showSearch={{ filterOption: false, onSearch: setSearch }} loading={carriers.isFetching} options={carrierOptions} onChange={() => form.setFieldsValue({ sensorIds: [], centreSensorId: null })} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={16}>
          <Form.Item name="sensorIds" label={t('form.devices')} rules={[{ required: true, type: 'array', min: 1, message: t('form.devicesRequired') }]}>
            <Select mode="multiple" loading={probes.isFetching} options={probeOptions} maxTagCount="responsive" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={8}>
          <Form.Item name="centreSensorId" label={t('form.centre')} tooltip={t('form.centreHint')}>
            <Select allowClear options={centreOptions} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="setpoint" label={t('form.setpoint')} rules={required}>
            <InputNumber step={0.1} precision={2} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="humSetpoint" label={t('form.humSetpoint')}>
            <InputNumber min={0} max={100} step={1} precision={2} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="conditions" label={t('form.conditions')} tooltip={t('form.conditionsHint')} rules={[{ max: 250, message: t('form.max250') }]}>
            <Input maxLength={250} />
          </Form.Item>
        </Col>
      </FormSection>
      <FormSection title={t('form.timesTitle')} hint={t('form.timesHint', { tz: timeZone ?? '' })}>
        <Col xs={24} sm={14}>
          <Form.Item name="period" label={t('form.period')} rules={required}>
            <DatePicker.RangePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={10}>
          <Form.Item name="recordStart" label={t('form.recordStart')}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={8}>
          <Form.Item name="intervalS" label={t('form.interval')} rules={required}>
            <InputNumber min={10} max={86400} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={8}>
          <Form.Item name="dataDelayMin" label={t('form.dataDelay')} rules={required}>
            <InputNumber min={1} max={1440} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col xs={8}>
          <Form.Item name="offlineDelayMin" label={t('form.offlineDelay')} rules={required}>
            <InputNumber min={1} max={1440} precision={0} style={{ width: '100%' }} />
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="notices" label={t('form.notices')}>
            <Checkbox.Group>
              <Space wrap>
                {NOTICES.map((n) => (
                  <Checkbox key={n} value={n}>
                    {t(`form.${n}`)}
                  </Checkbox>
                ))}
              </Space>
            </Checkbox.Group>
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item name="description" label={t('form.description')} rules={[{ max: 250, message: t('form.max250') }]}>
            <Input.TextArea maxLength={250} rows={2} />
          </Form.Item>
        </Col>
      </FormSection>
    </FormDialog>
  );
}
