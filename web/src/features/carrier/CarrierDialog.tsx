import { useEffect, useMemo, useState } from 'react';
import { App, Checkbox, Col, Divider, Form, Input, InputNumber, Radio, Row, Select, Switch, TreeSelect } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  CARRIER_MODES,
  CARRIER_TYPES,
  CARRIER_STATUS,
  LOAD_TYPES,
  NOTICE_CHANNELS,
  SAMPLE_MODES,
  SAMPLE_MODE_MIN,
  carrierApi,
  contactApi,
  sensorApi,
  sensorMeasuresHumidity,
  type CarrierRow,
  type SensorType,
} from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { sceneOption, useSceneTree, withRoot, type SceneNode } from '../../ui';
import { fieldErrors, rules, trimmed } from '../sys/formRules';
import { zonePartner, zoneRules, type ZoneField } from './zoneRules';
import { carrierStatusLabel, carrierTypeLabel } from './carrierLabels';
import { useOffered } from '../type/useOffered';

interface Values {
  name: string;
  type: number;
  /** The scene picker's value: the scene id as a string. */
  sceneId: string;
  status: number;
  mode: string;
  loadType: number;
  traceable: boolean;
  alarmOn: boolean;
  isKpi: boolean;
  sampleMode: string;
  alarmMethods: string[];
  tempMin?: number | null;
  tempMax?: number | null;
  humMin?: number | null;
  humMax?: number | null;
  contactIds: number[];
  sensorIds: number[];
}

const FIELDS = ['name', 'type', 'sceneId', 'status', 'mode', 'loadType', 'traceable', 'alarmOn', 'isKpi', 'sampleMode', 'alarmMethods', 'tempMin', 'tempMax', 'humMin', 'humMax', 'contactIds', 'sensorIds'];

function customerOfScene(root: SceneNode | undefined, sceneId: number | undefined): number | undefined {
  if (!root || !sceneId) return undefined;
  const walk = (n: SceneNode): number | undefined => {
    if (n.nodeType === 'scene' && n.scene_id === sceneId) return n.scope_id ?? undefined;
    for (const c of n.children) {
      const hit = walk(c);
      if (hit) return hit;
    }
    return undefined;
  };
  return walk(root);
}

/**
 * Add or edit a carrier (spec §3 Carrier, §5 range rules): every field, its zones, the contacts
 * who get its alarms and the sensors bound to it.
 */
export function CarrierDialog({ target, defaultType, defaultSceneId, onClose, onDone }: { target: CarrierRow | 'new' | null; defaultType?: number; defaultSceneId?: number; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('carrier');
  const { message } = App.useApp();
  const [form] = Form.useForm<Values>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => fieldErrors(e, FIELDS));
  const isNew = target === 'new';
  const offered = useOffered();
  const editingId = target && target !== 'new' ? target.id : undefined;
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
  const free = useCall(sensorApi.page, { query: { iDisplayLength: 100, bound: 'false', customerId, devNo: sensorSearch || undefined } }, { enabled: open && !!customerId });
  // The sensors bound when the dialog opened: offered beside the unbound ones.
  const [mine, setMine] = useState<{ id: number; devNo: string; type: SensorType }[]>([]);
  const sensors = useMemo(() => {
    const all = new Map<number, { id: number; devNo: string; type: SensorType }>();
    for (const s of [...mine, ...(free.data?.rows ?? [])]) all.set(s.id, s);
    return [...all.values()];
  }, [mine, free.data]);
  const chosen = sensors.filter((s) => (sensorIds ?? []).includes(s.id));
  const climate = chosen.filter((s) => s.type !== 'gas' && s.type !== 'magnet');
  // Spec §5: a set of thermometers only cannot take a humidity zone.
  const thermometersOnly = climate.length > 0 && !climate.some((s) => sensorMeasuresHumidity(s.type));

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setMine([]);
    if (target === 'new') {
      form.setFieldsValue({
        type: defaultType ?? 2, sceneId: defaultSceneId ? String(defaultSceneId) : undefined, status: CARRIER_STATUS.running, mode: 'normal', loadType: 0, traceable: false,
        alarmOn: true, isKpi: true, sampleMode: 'latest', alarmMethods: ['email'], contactIds: [], sensorIds: [],
      } as Partial<Values>);
      return;
    }
    // The scene picker's values are strings (sceneOption).
    form.setFieldsValue({ ...target, sceneId: String(target.sceneId), contactIds: [], sensorIds: [] } as Partial<Values>);
    call(carrierApi.detail, { query: { id: target.id } }).then((d) => form.setFieldsValue({ ...d, sceneId: String(d.sceneId) } as Partial<Values>), () => undefined);
    call(sensorApi.page, { query: { iDisplayLength: 100, carrierId: target.id } }).then((r) => {
      setMine(r.rows);
      form.setFieldsValue({ sensorIds: r.rows.map((s) => s.id) });
    }, () => undefined);
  }, [target, form, defaultType, defaultSceneId]);

  const save = () =>
    submit(async (v) => {
      const body = {
        name: trimmed(v.name),
        type: v.type,
        sceneId: Number(v.sceneId),
        status: v.status,
        mode: v.mode as (typeof CARRIER_MODES)[number],
        loadType: v.loadType,
        traceable: v.traceable,
        alarmOn: v.alarmOn,
        isKpi: v.isKpi,
        sampleMode: v.sampleMode as (typeof SAMPLE_MODES)[number],
        alarmMethods: v.alarmMethods as (typeof NOTICE_CHANNELS)[number][],
        tempMin: v.tempMin ?? null,
        tempMax: v.tempMax ?? null,
        humMin: v.humMin ?? null,
        humMax: v.humMax ?? null,
        contactIds: v.contactIds ?? [],
        sensorIds: v.sensorIds ?? [],
      };
      if (isNew) await call(carrierApi.add, { body });
      else await call(carrierApi.update, { body: { ...body, id: editingId! } });
      void message.success(isNew ? t('msg.added') : t('msg.updated'));
      onDone();
      onClose();
    });

  const num = (field: ZoneField, unit: string) => (
    <Form.Item name={field} label={t(`form.${field}`)} dependencies={[zonePartner(field)]} rules={zoneRules(t, field)}>
      <InputNumber style={{ width: '100%' }} step={0.1} addonAfter={unit} disabled={field.startsWith('hum') && thermometersOnly} />
    </Form.Item>
  );

  return (
    <FormDialog open={open} title={isNew ? t('form.addTitle') : t('form.editTitle')} width={760} okText={t('form.ok')} cancelText={t('form.cancel')} saving={saving} scrollBody onSubmit={save} onCancel={onClose}>
      <Form form={form} name="carrierForm" layout="vertical" size="small" requiredMark>
        <Divider titlePlacement="start" plain style={{ marginTop: 4 }}>
          {t('form.basic')}
        </Divider>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('form.name')} rules={rules(t, { required: true, max: 50 })}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="sceneId" label={t('form.scene')} rules={[{ required: true, message: t('rule.required') }]}>
              <TreeSelect treeData={treeData} treeDefaultExpandAll showSearch treeNodeFilterProp="title" placeholder={t('form.scenePick')} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="type" label={t('form.type')} rules={[{ required: true, message: t('rule.required') }]}>
              <Select options={CARRIER_TYPES.filter((c) => offered.carrier(c.type, target && target !== 'new' ? target.type : undefined)).map((c) => ({ value: c.type, label: carrierTypeLabel(t, c.type) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="status" label={t('form.status')}>
              <Select options={Object.values(CARRIER_STATUS).map((s) => ({ value: s, label: carrierStatusLabel(t, s) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="loadType" label={t('form.loadType')}>
              <Select options={LOAD_TYPES.map((l) => ({ value: l, label: t(`loadType.${l}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="mode" label={t('form.mode')}>
              <Radio.Group optionType="button" options={CARRIER_MODES.map((m) => ({ value: m, label: t(`mode.${m}`) }))} />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="traceable" label={t('form.traceable')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="isKpi" label={t('form.isKpi')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
          <Col xs={8}>
            <Form.Item name="alarmOn" label={t('form.alarmOn')} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        </Row>
        <Divider titlePlacement="start" plain>
          {t('form.zones')}
        </Divider>
        <Row gutter={16}>
          <Col xs={12} sm={6}>
            {num('tempMin', '°C')}
          </Col>
          <Col xs={12} sm={6}>
            {num('tempMax', '°C')}
          </Col>
          <Col xs={12} sm={6}>
            {num('humMin', '%RH')}
          </Col>
          <Col xs={12} sm={6}>
            {num('humMax', '%RH')}
          </Col>
        </Row>
        {thermometersOnly && <div className="ant-form-item-extra" style={{ marginTop: -8, marginBottom: 8 }}>{t('form.thermometersOnly')}</div>}
        <Divider titlePlacement="start" plain>
          {t('form.devicesAndAlarms')}
        </Divider>
        <Form.Item name="sensorIds" label={t('form.sensors')} extra={customerId ? undefined : t('form.sensorsPickScene')}>
          <Select
            mode="multiple"
            showSearch
            filterOption={false}
            onSearch={setSensorSearch}
            disabled={!customerId}
            options={sensors.map((s) => ({ value: s.id, label: `${s.devNo} · ${t(`sensorType.${s.type}`, { defaultValue: s.type })}` }))}
            placeholder={t('form.sensorsPlaceholder')}
          />
        </Form.Item>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="sampleMode" label={t('form.sampleMode')} extra={t('form.sampleModeHelp')}>
              <Select
                options={SAMPLE_MODES.map((m) => ({
                  value: m,
                  label: `${t(`sampleMode.${m}`)} (${t('form.atLeast', { n: SAMPLE_MODE_MIN[m] })})`,
                }))}
              />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="alarmMethods" label={t('form.alarmMethods')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.alarmMethodRequired') }]}>
              <Checkbox.Group options={NOTICE_CHANNELS.map((c) => ({ value: c, label: t(`channel.${c}`) }))} />
            </Form.Item>
          </Col>
        </Row>
        <Form.Item
          name="contactIds"
          label={t('form.contacts')}
          extra={
            <span>
              {t('form.contactsHelp')} <Link to="/arch/contacts">{t('form.manageContacts')}</Link>
            </span>
          }
        >
          <Select
            mode="multiple"
            showSearch
            filterOption={false}
            onSearch={setContactSearch}
            options={(contacts.data?.rows ?? []).filter((c) => !customerId || c.customerId === customerId).map((c) => ({ value: c.id, label: `${c.name}${c.phone ? ` · ${c.phone}` : ''}${c.email ? ` · ${c.email}` : ''}` }))}
          />
        </Form.Item>
      </Form>
    </FormDialog>
  );
}
