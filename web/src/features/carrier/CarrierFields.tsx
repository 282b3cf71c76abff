/** The carrier form's three sections: the basics, the zones, and the devices and alarms. */
import { Col, Divider, Form, Input, InputNumber, Radio, Row, Select, Switch, TreeSelect } from 'antd';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { CARRIER_MODES, CARRIER_STATUS, CARRIER_TYPES, LOAD_TYPES, MKT_DH_DEFAULT, MKT_DH_MAX, MKT_DH_MIN, SAMPLE_MODES, SAMPLE_MODE_MIN } from '@coldwatch/contract';
import { rules } from '../sys/formRules';
import { useOffered } from '../type/useOffered';
import { carrierStatusLabel, carrierTypeLabel } from './carrierLabels';
import type { CarrierFormData } from './useCarrierForm';
import { zonePartner, zoneRules, type ZoneField } from './zoneRules';

/** Name, scene, type (the offered ones and the carrier's own), status, load type, mode and the three switches. */
export function CarrierBasicFields({ treeData, keepType }: { treeData: CarrierFormData['treeData']; keepType?: number }) {
  const { t } = useTranslation('carrier');
  const offered = useOffered();
  return (
    <>
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
            <Select options={CARRIER_TYPES.filter((c) => offered.carrier(c.type, keepType)).map((c) => ({ value: c.type, label: carrierTypeLabel(t, c.type) }))} />
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
        {(['traceable', 'isKpi', 'alarmOn'] as const).map((f) => (
          <Col xs={8} key={f}>
            <Form.Item name={f} label={t(`form.${f}`)} valuePropName="checked">
              <Switch />
            </Form.Item>
          </Col>
        ))}
      </Row>
    </>
  );
}

/** One range bound (spec §5 rules; checked again when its partner changes). */
function ZoneInput({ field, unit, disabled }: { field: ZoneField; unit: string; disabled: boolean }) {
  const { t } = useTranslation('carrier');
  return (
    <Form.Item name={field} label={t(`form.${field}`)} dependencies={[zonePartner(field)]} rules={zoneRules(t, field)}>
      <InputNumber style={{ width: '100%' }} step={0.1} addonAfter={unit} disabled={disabled} />
    </Form.Item>
  );
}

/** The temperature and humidity zones, the humidity one closed to thermometers only (the alarm delay and margins are the trigger's). */
export function CarrierZoneFields({ thermometersOnly }: { thermometersOnly: boolean }) {
  const { t } = useTranslation('carrier');
  const zones: [ZoneField, string][] = [['tempMin', '°C'], ['tempMax', '°C'], ['humMin', '%RH'], ['humMax', '%RH']];
  return (
    <>
      <Divider titlePlacement="start" plain>
        {t('form.zones')}
      </Divider>
      <Row gutter={16}>
        {zones.map(([field, unit]) => (
          <Col xs={12} sm={6} key={field}>
            <ZoneInput field={field} unit={unit} disabled={field.startsWith('hum') && thermometersOnly} />
          </Col>
        ))}
      </Row>
      {thermometersOnly && <div className="ant-form-item-extra" style={{ marginTop: -8, marginBottom: 8 }}>{t('form.thermometersOnly')}</div>}
    </>
  );
}

/** Bound sensors (of the scene's customer), sample mode, the alarm trigger and the contacts who get the alarms. */
export function CarrierAlarmFields({ data: { customerId, sensors, contacts, triggers, setSensorSearch, setContactSearch } }: { data: CarrierFormData }) {
  const { t } = useTranslation('carrier');
  return (
    <>
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
            <Select options={SAMPLE_MODES.map((m) => ({ value: m, label: `${t(`sampleMode.${m}`)} (${t('form.atLeast', { n: SAMPLE_MODE_MIN[m] })})` }))} />
          </Form.Item>
          <Form.Item name="mktDh" label={t('form.mktDh')} extra={t('form.mktDhHelp')} rules={[{ type: 'number', min: MKT_DH_MIN, max: MKT_DH_MAX, message: t('form.mktDhRange') }]}>
            <InputNumber style={{ width: '100%' }} min={MKT_DH_MIN} max={MKT_DH_MAX} step={100} placeholder={String(MKT_DH_DEFAULT)} addonAfter="K" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          {/* Channels, hours, repeats, delay and margins are the trigger's (/sysAlarm); none: the contacts by e-mail. */}
          <Form.Item
            name="triggerId"
            label={t('form.trigger')}
            extra={
              <span>
                {t('form.triggerHelp')} <Link to="/sysAlarm">{t('form.manageTriggers')}</Link>
              </span>
            }
          >
            <Select
              allowClear
              disabled={!customerId}
              placeholder={t('form.triggerNone')}
              options={(triggers.data ?? []).map((x) => ({ value: x.id, label: `${x.name} · ${x.channels.map((c) => t(`channel.${c}`)).join(', ')}` }))}
            />
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
    </>
  );
}
