import { useEffect } from 'react';
import { App, Col, Form, Input, InputNumber, Radio, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { SCENE_FUNC, latitude, longitude, sceneApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { fieldErrors, rules, trimmed, zodRule } from '../sys/formRules';
import { FUNC_TYPES, funcTypeIcon } from '../../ui/funcTypes';

/** What the dialog does: add a node under `parentId` (null: the customer's top level), or edit `node`. */
export type SceneTarget =
  | { mode: 'add'; parentId: number | null; customerId: number | null; parentLabel: string }
  | { mode: 'edit'; id: number; parentId: number | null; label: string; funcType: number; lng: number | null; lat: number | null; childCount: number };

interface Values {
  label: string;
  funcType: number;
  lng?: number | null;
  lat?: number | null;
}

const FIELDS = ['label', 'funcType', 'lng', 'lat'];

/** Add or edit an organisation node (spec §3 Architecture node, §5 coordinates). */
export function SceneDialog({ target, onClose, onDone }: { target: SceneTarget | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('arch');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => fieldErrors(e, FIELDS));

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target.mode === 'edit' ? { label: target.label, funcType: target.funcType, lng: target.lng, lat: target.lat } : { funcType: 0 });
  }, [target, form]);

  const save = () =>
    submit(async (v) => {
      const body = { label: trimmed(v.label), funcType: v.funcType, lng: v.lng ?? null, lat: v.lat ?? null };
      if (target?.mode === 'add') {
        await call(sceneApi.add, { body: { ...body, parentId: target.parentId, customerId: target.customerId ?? undefined } });
        void message.success(t('msg.added'));
      } else if (target?.mode === 'edit') {
        await call(sceneApi.update, { body: { ...body, id: target.id, parentId: target.parentId } });
        void message.success(t('msg.updated'));
      }
      onDone();
      onClose();
    });

  // A node that already has children cannot become a floor plan (spec §4).
  const planLocked = target?.mode === 'edit' && target.childCount > 0;

  return (
    <FormDialog
      open={!!target}
      title={target?.mode === 'add' ? t('form.addTitle', { parent: target.parentLabel }) : t('form.editTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={save}
      onCancel={onClose}
    >
      <Form form={form} name="sceneForm" layout="vertical" requiredMark>
        <Form.Item name="label" label={t('form.label')} rules={rules(t, { required: true, max: 50 })}>
          <Input maxLength={50} autoFocus />
        </Form.Item>
        <Form.Item name="funcType" label={t('form.funcType')} extra={planLocked ? t('form.planLocked') : t('form.funcTypeHelp')}>
          <Radio.Group>
            {FUNC_TYPES.map((f) => (
              <Radio.Button key={f} value={f} disabled={planLocked && f === SCENE_FUNC.floorPlan}>
                <span style={{ marginInlineEnd: 6 }}>{funcTypeIcon(f)}</span>
                {t(`funcType.${f}`)}
              </Radio.Button>
            ))}
          </Radio.Group>
        </Form.Item>
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item name="lng" label={t('form.lng')} rules={[zodRule(longitude, t, { optional: true })]}>
              <InputNumber style={{ width: '100%' }} placeholder="116.397128" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="lat" label={t('form.lat')} rules={[zodRule(latitude, t, { optional: true })]}>
              <InputNumber style={{ width: '100%' }} placeholder="39.916527" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormDialog>
  );
}
