import { App, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { carrierApi, type CarrierRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { fieldErrors } from '../sys/formRules';
import { CarrierAlarmFields, CarrierBasicFields, CarrierZoneFields } from './CarrierFields';
import { CARRIER_FIELDS, carrierBody, type CarrierValues } from './carrierForm';
import { useCarrierForm } from './useCarrierForm';

/**
 * Add or edit a carrier (spec §3 Carrier, §5 range rules): every field, its zones, the contacts
 * who get its alarms and the sensors bound to it.
 */
export function CarrierDialog({ target, defaultType, defaultSceneId, onClose, onDone }: { target: CarrierRow | 'new' | null; defaultType?: number; defaultSceneId?: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('carrier');
  const { message } = App.useApp();
  const [form] = Form.useForm<CarrierValues>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => fieldErrors(e, CARRIER_FIELDS));
  const data = useCarrierForm(form, target, defaultType, defaultSceneId);
  const isNew = target === 'new';
  const editing = target && target !== 'new' ? target : undefined;

  const save = () =>
    submit(async (v) => {
      const body = carrierBody(v);
      if (isNew) await call(carrierApi.add, { body });
      else await call(carrierApi.update, { body: { ...body, id: editing!.id } });
      void message.success(isNew ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });

  return (
    <FormDialog open={!!target} title={isNew ? t('form.addTitle') : t('form.editTitle')} width={760} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} scrollBody onSubmit={save} onCancel={onClose}>
      <Form form={form} name="carrierForm" layout="vertical" size="small" requiredMark>
        <CarrierBasicFields treeData={data.treeData} keepType={editing?.type} />
        <CarrierZoneFields thermometersOnly={data.thermometersOnly} />
        <CarrierAlarmFields data={data} />
      </Form>
    </FormDialog>
  );
}
