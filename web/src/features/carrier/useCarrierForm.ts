/**
 * The carrier dialog's data: the form filled from the carrier, its detail and its bound sensors;
 * the scene tree, the contacts and sensors it offers (unbound ones of the scene's customer beside
 * its own), and whether the chosen sensors are thermometers only (spec §5: no humidity zone then).
 */
import { useEffect, useMemo, useState } from 'react';
import { Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { alarmTriggerApi, carrierApi, contactApi, isClimateSensor, sensorApi, sensorMeasuresHumidity, type CarrierRow, type SensorType } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { sceneOption, useSceneTree, withRoot } from '../../ui';
import { customerOfScene, newCarrierValues, type CarrierValues } from './carrierForm';

type SensorChoice = { id: number; devNo: string; type: SensorType };

export function useCarrierForm(form: FormInstance<CarrierValues>, target: CarrierRow | 'new' | null, defaultType?: number, defaultSceneId?: number) {
  const { t } = useTranslation('carrier');
  const tree = useSceneTree();
  const root = useMemo(() => (tree.data ? withRoot(tree.data, t('common:tree.all')) : undefined), [tree.data, t]);
  const treeData = useMemo(() => (root ? root.children.map(sceneOption) : []), [root]);
  const sceneId = Form.useWatch('sceneId', form);
  const sensorIds = Form.useWatch('sensorIds', form);
  const customerId = customerOfScene(root, sceneId ? Number(sceneId) : undefined);
  const [contactSearch, setContactSearch] = useState('');
  const [sensorSearch, setSensorSearch] = useState('');
  const open = !!target;

  const contacts = useCall(contactApi.page, { query: { iDisplayLength: 100, name: contactSearch || undefined } }, { enabled: open });
  // The customer's alarm triggers (api/alarmTrigger.ts): what the carrier may be bound to.
  const triggers = useCall(alarmTriggerApi.options, { query: { customerId } }, { enabled: open && !!customerId });
  const free = useCall(sensorApi.page, { query: { iDisplayLength: 100, bound: 'false', customerId, devNo: sensorSearch || undefined } }, { enabled: open && !!customerId });
  // The sensors bound when the dialog opened: offered beside the unbound ones.
  const [mine, setMine] = useState<SensorChoice[]>([]);
  const sensors = useMemo(() => {
    const all = new Map<number, SensorChoice>();
    for (const s of [...mine, ...(free.data?.rows ?? [])]) all.set(s.id, s);
    return [...all.values()];
  }, [mine, free.data]);
  const chosen = sensors.filter((s) => (sensorIds ?? []).includes(s.id));
  const climate = chosen.filter((s) => isClimateSensor(s.type));
  // Spec §5: a set of thermometers only cannot take a humidity zone.
  const thermometersOnly = climate.length > 0 && !climate.some((s) => sensorMeasuresHumidity(s.type));

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setMine([]);
    if (target === 'new') {
      form.setFieldsValue(newCarrierValues(defaultType, defaultSceneId));
      return;
    }
    // The scene picker's values are strings (sceneOption).
    form.setFieldsValue({ ...target, sceneId: String(target.sceneId), contactIds: [], sensorIds: [] } as Partial<CarrierValues>);
    call(carrierApi.detail, { query: { id: target.id } }).then((d) => form.setFieldsValue({ ...d, sceneId: String(d.sceneId) } as Partial<CarrierValues>), () => undefined);
    call(sensorApi.page, { query: { iDisplayLength: 100, carrierId: target.id } }).then((r) => {
      setMine(r.rows);
      form.setFieldsValue({ sensorIds: r.rows.map((s) => s.id) });
    }, () => undefined);
  }, [target, form, defaultType, defaultSceneId]);

  return { treeData, customerId, contacts, triggers, sensors, thermometersOnly, setContactSearch, setSensorSearch };
}

export type CarrierFormData = ReturnType<typeof useCarrierForm>;
