import { useEffect, useState } from 'react';
import { Form, Input, Modal, Select, Upload, type UploadFile } from 'antd';
import { useTranslation } from 'react-i18next';
import { WORK_ORDER_CATEGORIES, WORK_ORDER_SUBJECTS, workOrderApi, type WorkOrderSubject } from '@coldwatch/contract';
import { useAction, useUpload } from '../../api/hooks';
import { CarrierSelect, GatewaySelect } from '../device/devicePickers';
import { SensorSelect } from '../querycode/SensorSelect';

/** What a work order is raised on when it is opened from an exception or a device (its subject, fixed). */
export interface RaisePrefill {
  kind: WorkOrderSubject;
  id: number;
  name: string;
}

interface Values {
  subjectKind: WorkOrderSubject;
  subjectId: number;
  category: (typeof WORK_ORDER_CATEGORIES)[number];
  description: string;
}

/**
 * Raise a work order (docs/workorders.md): its subject (a sensor, gateway or carrier chosen here;
 * an exception or a device when opened from its page), category, description and pictures (JPG
 * or PNG, spec §5), uploaded once the order exists.
 */
export function RaiseDialog({ open, prefill, onClose, onDone }: { open: boolean; prefill: RaisePrefill | null; onClose: () => void; onDone: (id: number) => void }) {
  const { t } = useTranslation('workOrder');
  const [form] = Form.useForm<Values>();
  const [files, setFiles] = useState<UploadFile[]>([]);
  const kind = Form.useWatch('subjectKind', form);
  const add = useAction(workOrderApi.add, { success: t('msg.raised') });
  const picture = useUpload(workOrderApi.picture, { success: false });
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    setFiles([]);
    form.setFieldsValue(prefill ? { subjectKind: prefill.kind, subjectId: prefill.id, category: 'repair' } : { subjectKind: 'sensor', category: 'repair' });
  }, [open, prefill, form]);

  const submit = async () => {
    const v = await form.validateFields();
    const made = await add.run({ body: v });
    if (!made) return;
    for (const f of files) if (f.originFileObj) await picture.run({ file: f.originFileObj, query: { id: made.id } });
    onDone(made.id);
  };
  const subjectKinds = prefill ? [prefill.kind] : WORK_ORDER_SUBJECTS.filter((k) => k !== 'exception');
  return (
    <Modal open={open} title={t('raise.title')} okText={t('raise.ok')} cancelText={t('cancel')} onOk={submit} onCancel={onClose} confirmLoading={add.busy || picture.busy} destroyOnHidden width={560}>
      <Form form={form} layout="vertical" name="workOrderForm">
        <Form.Item name="subjectKind" label={t('raise.subjectKind')} rules={[{ required: true }]}>
          <Select disabled={!!prefill} options={subjectKinds.map((k) => ({ value: k, label: t(`subject.${k}`) }))} onChange={() => form.setFieldValue('subjectId', undefined)} />
        </Form.Item>
        <Form.Item name="subjectId" label={t('raise.subject')} rules={[{ required: true, message: t('raise.subjectRequired') }]}>
          {prefill ? (
            <Select disabled options={[{ value: prefill.id, label: prefill.name }]} />
          ) : kind === 'gateway' ? (
            <GatewaySelect open={open} />
          ) : kind === 'carrier' ? (
            <CarrierSelect open={open} />
          ) : (
            <SensorSelect open={open} />
          )}
        </Form.Item>
        <Form.Item name="category" label={t('col.category')} rules={[{ required: true }]}>
          <Select options={WORK_ORDER_CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))} />
        </Form.Item>
        <Form.Item name="description" label={t('col.description')} rules={[{ required: true, whitespace: true, message: t('raise.descriptionRequired') }, { max: 500 }]}>
          <Input.TextArea rows={4} maxLength={500} showCount placeholder={t('raise.descriptionHint')} />
        </Form.Item>
        <Form.Item label={t('raise.pictures')} extra={t('raise.picturesHint')}>
          <Upload listType="picture-card" accept=".jpg,.jpeg,.png" fileList={files} beforeUpload={() => false} onChange={({ fileList }) => setFiles(fileList.slice(0, 9))} multiple>
            {files.length < 9 ? '+' : null}
          </Upload>
        </Form.Item>
      </Form>
    </Modal>
  );
}
