import { useEffect } from 'react';
import { App, Form, Input, InputNumber, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { PLACE_RADIUS_M, placeApi, placeBody, type PlaceRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors, trimmed, zodRule } from '../sys/formRules';
import type { Option } from '../account/shared';

const FIELDS = ['name', 'lat', 'lng', 'radiusM', 'customerId'];

interface Values {
  customerId?: number;
  name: string;
  lat: number;
  lng: number;
  radiusM: number;
}

/**
 * Add or change a place (docs/transport.md "Places"): its name (unique in the customer's places,
 * 418), its centre in WGS-84 degrees as the gateways report them, and its radius in metres.
 * Platform users choose the customer it belongs to.
 */
export function PlaceDialog({ target, customers, onClose, onDone }: { target: PlaceRow | 'new' | null; customers?: Option[]; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('trip');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, { 418: 'name' }));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(target === 'new' ? { radiusM: PLACE_RADIUS_M.default } : target);
  }, [target, form]);
  const save = () =>
    submit(async (v) => {
      const body = { name: trimmed(v.name), lat: v.lat, lng: v.lng, radiusM: v.radiusM };
      if (target === 'new') await call(placeApi.add, { body: { ...body, customerId: v.customerId } });
      else await call(placeApi.update, { body: { ...body, id: (target as PlaceRow).id } });
      void message.success(target === 'new' ? t('place.added') : t('place.updated'));
      onDone();
      onClose();
    });
  const shape = placeBody.shape;
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('place.addTitle') : t('place.editTitle')} okText={t('place.ok')} cancelText={t('cancel')} saving={saving} onSubmit={save} onCancel={onClose}>
      <Form form={form} name="placeForm" layout="vertical" requiredMark>
        {customers && target === 'new' && (
          <Form.Item name="customerId" label={t('place.customer')} rules={[{ required: true, message: t('place.customerRequired') }]}>
            <Select showSearch={{ optionFilterProp: 'label' }} options={customers} />
          </Form.Item>
        )}
        <Form.Item name="name" label={t('place.name')} rules={[{ required: true, message: t('place.nameRequired') }, zodRule(shape.name, t)]}>
          <Input maxLength={50} />
        </Form.Item>
        {/* Side by side where they fit; wrapped, the usual space between form rows (no row gap added). */}
        <div style={{ display: 'flex', columnGap: 16, flexWrap: 'wrap' }}>
          <Form.Item name="lat" label={t('place.lat')} rules={[{ required: true, message: t('place.latRequired') }, zodRule(shape.lat, t)]}>
            <InputNumber min={-90} max={90} step={0.000001} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="lng" label={t('place.lng')} rules={[{ required: true, message: t('place.lngRequired') }, zodRule(shape.lng, t)]}>
            <InputNumber min={-180} max={180} step={0.000001} style={{ width: 160 }} />
          </Form.Item>
          <Form.Item name="radiusM" label={t('place.radius')} rules={[{ required: true, message: t('place.radiusRequired') }, zodRule(shape.radiusM, t)]}>
            <InputNumber min={PLACE_RADIUS_M.min} max={PLACE_RADIUS_M.max} precision={0} addonAfter="m" style={{ width: 160 }} />
          </Form.Item>
        </div>
        <div className="ant-form-item-extra">{t('place.help')}</div>
      </Form>
    </FormDialog>
  );
}
