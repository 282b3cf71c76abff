import { useEffect, useMemo, useState } from 'react';
import { Alert, Button, Col, Descriptions, Divider, Form, Input, InputNumber, Row, Select, Space, Spin, Tag, TreeSelect, Typography } from 'antd';
import { CopyOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import {
  CARRIER_TYPES,
  SENSOR_TYPES,
  carrierApi,
  deviceNo,
  gatewayApi,
  gatewaySn,
  sceneApi,
  sensorApi,
  isClimateSensor,
  sensorMeasuresHumidity,
  wizardApi,
  type SensorType,
} from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { sceneOption, useApiErrorToast, useSceneTree } from '../../ui';
import { matches, rules, trimmed } from '../sys/formRules';
import { zonePartner, zoneRules } from '../carrier/zoneRules';
import { carrierTypeLabel } from '../carrier/carrierLabels';
import { updateBodyOf } from '../carrier/carrierBody';
import type { WizardProgress } from './wizardState';
import { useOffered } from '../type/useOffered';

/** A step's save: busy while it runs, the §8 message as a toast when it fails. */
function useStepSave() {
  const toast = useApiErrorToast();
  const [busy, setBusy] = useState(false);
  const run = async (fn: () => Promise<void>) => {
    setBusy(true);
    try {
      await fn();
    } catch (e) {
      toast(e);
    } finally {
      setBusy(false);
    }
  };
  return { busy, run };
}

const Nav = ({ onBack, busy, next }: { onBack?: () => void; busy: boolean; next: string }) => {
  const { t } = useTranslation('wizard');
  return (
    <Space>
      {onBack && <Button onClick={onBack}>{t('back')}</Button>}
      <Button type="primary" htmlType="submit" loading={busy}>
        {next}
      </Button>
    </Space>
  );
};

// ---- 1. Device access: a gateway and its sensors ----------------------------------------------

interface AccessValues {
  sn: string;
  name: string;
  sensors: { devNo: string; type: SensorType }[];
}

export function AccessStep({ progress, onDone }: { progress: WizardProgress; onDone: (r: { gatewayId: number; gatewaySn: string; secret?: string; sensorIds: number[]; devNos: string[] }) => void }) {
  const offered = useOffered();
  const { t } = useTranslation('wizard');
  const [form] = Form.useForm<AccessValues>();
  const { busy, run } = useStepSave();
  const done = progress.gatewayId !== undefined;

  const save = (v: AccessValues) =>
    run(async () => {
      // A gateway already made in an earlier visit is kept; only new sensors are added.
      let gatewayId = progress.gatewayId;
      let sn = progress.gatewaySn ?? '';
      let secret: string | undefined;
      if (gatewayId === undefined) {
        const gw = await call(gatewayApi.add, { body: { sn: trimmed(v.sn).toUpperCase(), name: trimmed(v.name) } });
        gatewayId = gw.id;
        sn = gw.sn;
        secret = gw.secret;
      }
      const sensorIds = [...progress.sensorIds];
      const devNos = [...progress.devNos];
      for (const s of v.sensors ?? []) {
        if (!s?.devNo || devNos.includes(s.devNo)) continue;
        const r = await call(sensorApi.add, { body: { devNo: trimmed(s.devNo), type: s.type, gatewayId } });
        sensorIds.push(r.id);
        devNos.push(trimmed(s.devNo));
      }
      onDone({ gatewayId, gatewaySn: sn, secret, sensorIds, devNos });
    });

  return (
    <Form form={form} layout="vertical" onFinish={save} initialValues={{ sensors: progress.devNos.length ? [] : [{ type: 'zigbee_th' }] }} style={{ maxWidth: 720 }}>
      <Typography.Paragraph type="secondary">{t('access.intro')}</Typography.Paragraph>
      <Divider titlePlacement="start" plain>
        {t('access.gateway')}
      </Divider>
      {done ? (
        <Alert type="success" showIcon title={t('access.gatewayDone', { sn: progress.gatewaySn })} style={{ marginBottom: 16 }} />
      ) : (
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="sn" label={t('access.sn')} extra={t('access.snHelp')} rules={[{ required: true, message: t('rule.required') }, matches(gatewaySn, t('rule.gatewaySn'))]} normalize={(v: string) => v?.toUpperCase()}>
              <Input maxLength={12} placeholder="A1B2C3D4E5F6" />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('access.gatewayName')} rules={rules(t, { required: true, max: 50 })}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
        </Row>
      )}
      <Divider titlePlacement="start" plain>
        {t('access.sensors')}
      </Divider>
      {progress.devNos.length > 0 && (
        <Space wrap style={{ marginBottom: 12 }}>
          {progress.devNos.map((d) => (
            <Tag key={d} color="green">
              {d}
            </Tag>
          ))}
        </Space>
      )}
      <Form.List name="sensors">
        {(fields, { add, remove }) => (
          <>
            {fields.map((f) => (
              <Row gutter={12} key={f.key} align="top">
                <Col xs={24} sm={10}>
                  <Form.Item name={[f.name, 'devNo']} label={t('access.devNo')} rules={[{ required: true, message: t('rule.required') }, matches(deviceNo, t('rule.deviceNo'))]}>
                    <Input maxLength={30} placeholder="T0012345" />
                  </Form.Item>
                </Col>
                <Col xs={18} sm={10}>
                  <Form.Item name={[f.name, 'type']} label={t('access.sensorType')} rules={[{ required: true, message: t('rule.required') }]}>
                    <Select options={SENSOR_TYPES.filter((s) => offered.sensor(s)).map((s) => ({ value: s, label: t(`carrier:sensorType.${s}`) }))} />
                  </Form.Item>
                </Col>
                <Col xs={6} sm={4}>
                  <Form.Item label=" ">
                    <Button onClick={() => remove(f.name)}>{t('remove')}</Button>
                  </Form.Item>
                </Col>
              </Row>
            ))}
            <Button type="dashed" onClick={() => add({ type: 'zigbee_th' })} style={{ marginBottom: 16 }}>
              {t('access.addSensor')}
            </Button>
          </>
        )}
      </Form.List>
      <div>
        <Nav busy={busy} next={t('next')} />
      </div>
    </Form>
  );
}

// ---- 2 and 3. The carrier, then its zones --------------------------------------------------------

interface CarrierValues {
  name: string;
  type: number;
  sceneId?: string;
  newScene?: string;
  tempMin?: number | null;
  tempMax?: number | null;
  humMin?: number | null;
  humMax?: number | null;
}

export function CarrierStep({ progress, zones, onBack, onDone }: { progress: WizardProgress; zones: boolean; onBack: () => void; onDone: (carrierId: number) => void }) {
  const offered = useOffered();
  const { t } = useTranslation('wizard');
  const [form] = Form.useForm<CarrierValues>();
  const { busy, run } = useStepSave();
  const tree = useSceneTree();
  const treeData = useMemo(() => (tree.data ?? []).flatMap((n) => (n.nodeType === 'all' ? n.children : [n])).map(sceneOption), [tree.data]);
  const hasScenes = treeData.some((c) => c.children.length > 0);
  // The wizard's sensors all report through its gateway.
  const sensors = useCall(sensorApi.page, { query: { iDisplayLength: 100, gatewayId: progress.gatewayId } }, { enabled: zones && !!progress.gatewayId });
  const types = (sensors.data?.rows ?? []).filter((s) => progress.sensorIds.includes(s.id)).map((s) => s.type).filter(isClimateSensor);
  const thermometersOnly = types.length > 0 && !types.some(sensorMeasuresHumidity);

  // A carrier saved earlier (resume, or the step before): its values fill the fields the user has not touched meanwhile.
  useEffect(() => {
    if (!progress.carrierId) return;
    call(carrierApi.detail, { query: { id: progress.carrierId } }).then((c) => {
      const saved: Partial<CarrierValues> = { name: c.name, type: c.type, sceneId: String(c.sceneId), tempMin: c.tempMin, tempMax: c.tempMax, humMin: c.humMin, humMax: c.humMax };
      form.setFieldsValue(Object.fromEntries(Object.entries(saved).filter(([k]) => !form.isFieldTouched(k as keyof CarrierValues))));
    }, () => undefined);
  }, [progress.carrierId, form]);

  const save = (v: CarrierValues) =>
    run(async () => {
      const all = { ...form.getFieldsValue(true), ...v } as CarrierValues;
      let sceneId = Number(all.sceneId);
      if (!sceneId && all.newScene) sceneId = (await call(sceneApi.add, { body: { label: trimmed(all.newScene) } })).id;
      const zone = { tempMin: all.tempMin ?? null, tempMax: all.tempMax ?? null, humMin: all.humMin ?? null, humMax: all.humMax ?? null };
      const body = { name: trimmed(all.name), type: all.type, sceneId, ...zone };
      if (progress.carrierId) {
        const cur = await call(carrierApi.detail, { query: { id: progress.carrierId } });
        await call(carrierApi.update, { body: { ...updateBodyOf(cur), ...body } });
        onDone(progress.carrierId);
      } else onDone((await call(carrierApi.add, { body })).id);
    });

  return (
    <Form form={form} layout="vertical" onFinish={save} initialValues={{ type: 2, tempMin: 2, tempMax: 8 }} style={{ maxWidth: 720 }} preserve>
      <Typography.Paragraph type="secondary">{zones ? t('zones.intro') : t('carrier.intro')}</Typography.Paragraph>
      <div style={{ display: zones ? 'none' : undefined }}>
        <Row gutter={16}>
          <Col xs={24} sm={12}>
            <Form.Item name="name" label={t('carrier.name')} rules={rules(t, { required: true, max: 50 })}>
              <Input maxLength={50} placeholder={t('carrier.namePlaceholder')} />
            </Form.Item>
          </Col>
          <Col xs={24} sm={12}>
            <Form.Item name="type" label={t('carrier.type')}>
              <Select options={CARRIER_TYPES.filter((c) => offered.carrier(c.type)).map((c) => ({ value: c.type, label: carrierTypeLabel(t, c.type) }))} />
            </Form.Item>
          </Col>
          {hasScenes && (
            <Col xs={24} sm={12}>
              <Form.Item name="sceneId" label={t('carrier.scene')} rules={[({ getFieldValue }) => ({ required: !getFieldValue('newScene'), message: t('rule.sceneOrNew') })]}>
                <TreeSelect treeData={treeData} treeDefaultExpandAll allowClear />
              </Form.Item>
            </Col>
          )}
          <Col xs={24} sm={12}>
            <Form.Item name="newScene" label={hasScenes ? t('carrier.orNewScene') : t('carrier.newScene')} extra={t('carrier.newSceneHelp')} rules={[...rules(t, { max: 50 }), ({ getFieldValue }) => ({ required: !getFieldValue('sceneId'), message: t('rule.sceneOrNew') })]}>
              <Input maxLength={50} placeholder={t('carrier.newScenePlaceholder')} />
            </Form.Item>
          </Col>
        </Row>
      </div>
      {zones && (
        <Row gutter={16}>
          {(['tempMin', 'tempMax', 'humMin', 'humMax'] as const).map((f) => (
            <Col xs={12} sm={6} key={f}>
              <Form.Item name={f} label={t(`zones.${f}`)} dependencies={[zonePartner(f)]} rules={zoneRules(t, f)}>
                <InputNumber style={{ width: '100%' }} step={0.1} disabled={f.startsWith('hum') && thermometersOnly} addonAfter={f.startsWith('temp') ? '°C' : '%RH'} />
              </Form.Item>
            </Col>
          ))}
          {thermometersOnly && <Typography.Text type="secondary">{t('zones.thermometersOnly')}</Typography.Text>}
        </Row>
      )}
      <Nav onBack={onBack} busy={busy} next={t('next')} />
    </Form>
  );
}

// ---- 4. Device association --------------------------------------------------------------------

export function AssociateStep({ progress, onBack, onDone }: { progress: WizardProgress; onBack: () => void; onDone: () => void }) {
  const { t } = useTranslation('wizard');
  const [form] = Form.useForm<{ sensorIds: number[] }>();
  const { busy, run } = useStepSave();
  const carrier = useCall(carrierApi.detail, { query: { id: progress.carrierId ?? 0 } }, { enabled: !!progress.carrierId });
  const free = useCall(sensorApi.page, { query: { iDisplayLength: 100, bound: 'false' } });
  const options = useMemo(() => (free.data?.rows ?? []).map((s) => ({ value: s.id, label: s.devNo })), [free.data]);

  const save = (v: { sensorIds: number[] }) =>
    run(async () => {
      const c = carrier.data!;
      await call(carrierApi.update, { body: { ...updateBodyOf(c), sensorIds: v.sensorIds } });
      if (progress.gatewayId) {
        const gw = await call(gatewayApi.detail, { query: { id: progress.gatewayId } });
        if (!gw.carrierId) await call(gatewayApi.update, { body: { id: gw.id, sn: gw.sn, name: gw.name, nickname: gw.nickname, type: gw.type as 'gw2', tz: gw.tz, carrierId: c.id } });
      }
      onDone();
    });

  if (!carrier.data) return <Spin />;
  return (
    <Form form={form} layout="vertical" onFinish={save} initialValues={{ sensorIds: progress.sensorIds }} style={{ maxWidth: 720 }}>
      <Typography.Paragraph type="secondary">{t('associate.intro', { name: carrier.data.name })}</Typography.Paragraph>
      <Form.Item name="sensorIds" label={t('associate.sensors')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.oneSensor') }]}>
        <Select mode="multiple" options={[...progress.sensorIds.map((id, i) => ({ value: id, label: progress.devNos[i] })), ...options.filter((o) => !progress.sensorIds.includes(o.value))]} />
      </Form.Item>
      <Nav onBack={onBack} busy={busy} next={t('finish')} />
    </Form>
  );
}

// ---- Done: how to point the gateway at the console -------------------------------------------

export function ConnectPanel({ sn, secret, gatewayId, onSecret }: { sn?: string; secret?: string; gatewayId?: number; onSecret: (s: string) => void }) {
  const { t } = useTranslation('wizard');
  const info = useCall(wizardApi.connectInfo);
  const { busy, run } = useStepSave();
  const reset = () => run(async () => onSecret((await call(gatewayApi.resetSecret, { query: { id: gatewayId! } })).secret));
  const copy = (v: string) => void navigator.clipboard?.writeText(v);
  if (!info.data) return <Spin />;
  const i = info.data;
  return (
    <Descriptions
      bordered
      size="small"
      column={1}
      title={t('connect.title')}
      items={[
        { key: 'host', label: t('connect.host'), children: <Typography.Text copyable>{i.mqttHost}</Typography.Text> },
        { key: 'port', label: t('connect.port'), children: i.mqttPort ?? '--' },
        { key: 'client', label: t('connect.clientId'), children: <Typography.Text copyable>{sn}</Typography.Text> },
        { key: 'user', label: t('connect.username'), children: <Typography.Text copyable>{sn}</Typography.Text> },
        {
          key: 'secret',
          label: t('connect.password'),
          children: secret ? (
            <Space direction="vertical" size={2}>
              <Typography.Text code copyable={{ icon: <CopyOutlined /> }} onClick={() => copy(secret)}>
                {secret}
              </Typography.Text>
              <Typography.Text type="warning">{t('connect.secretOnce')}</Typography.Text>
            </Space>
          ) : (
            <Space wrap>
              <Typography.Text type="secondary">{t('connect.secretHidden')}</Typography.Text>
              {gatewayId && (
                <Button size="small" loading={busy} onClick={reset}>
                  {t('connect.resetSecret')}
                </Button>
              )}
            </Space>
          ),
        },
        { key: 'topic', label: t('connect.topic'), children: <Typography.Text code>{`cc/${sn}/up/data`}</Typography.Text> },
        { key: 'http', label: t('connect.http'), children: <Typography.Text copyable>{`${i.httpIngest}/${sn}/data`}</Typography.Text> },
        ...(i.externalBroker ? [{ key: 'ext', label: t('connect.note'), children: t('connect.external') }] : []),
      ]}
    />
  );
}
