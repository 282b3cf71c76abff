/** A forwarding server's fields (spec §3 Forwarding server; §5 port, timeout 0-30 s, heartbeat 0-60 s, topics ≤ 64). */
import { Col, Form, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { forwardServerBody, forwardingApi, type ForwardServerRow, type ForwardType } from '@coldwatch/contract';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { rules, serverFieldErrors, trimmed, zodRule } from '../sys/formRules';

const FIELDS = ['type', 'name', 'host', 'port', 'path', 'clientId', 'username', 'password', 'qos', 'timeoutS', 'heartbeatS', 'subTopic', 'pubTopic'];
const f = forwardServerBody.shape;

interface Values {
  type: ForwardType;
  name: string;
  host: string;
  port: number;
  tls: boolean;
  path?: string;
  clientId?: string;
  username?: string;
  password?: string;
  qos: 0 | 1 | 2;
  timeoutS: number;
  heartbeatS: number;
  subTopic?: string;
  pubTopic?: string;
  enabled: boolean;
}

export function ServerDialog({ target, onClose, onDone }: { target: ForwardServerRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('forwarding');
  const { form, row, saving, save } = useRecordDialog<ForwardServerRow, Values>({
    target,
    t,
    // 418: the name exists; the host and port or URI answers are shown on the host.
    errors: (e) => serverFieldErrors(e, FIELDS, { 418: 'name', 500000: 'host' }),
    values: (r) => (r === 'new' ? { type: 'mqtt', port: 1883, tls: false, qos: 1, timeoutS: 10, heartbeatS: 30, enabled: true } : { ...r, qos: r.qos as 0 | 1 | 2, type: r.type, password: '' }),
    onDone,
    onClose,
  });
  const type = Form.useWatch('type', form);
  const submit = () =>
    save({ add: forwardingApi.add, update: forwardingApi.update, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      type: v.type,
      name: trimmed(v.name),
      host: trimmed(v.host),
      port: v.port,
      tls: v.tls,
      path: trimmed(v.path),
      clientId: trimmed(v.clientId),
      username: trimmed(v.username),
      password: v.password ?? '',
      qos: v.qos,
      timeoutS: v.timeoutS,
      heartbeatS: v.heartbeatS,
      subTopic: trimmed(v.subTopic),
      pubTopic: trimmed(v.pubTopic),
      enabled: v.enabled,
    }));
  return (
    <FormDialog
      open={!!target}
      width={720}
      scrollBody
      title={row ? t('server.editTitle') : t('server.addTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={submit}
      onCancel={onClose}
      form={form}
      formName="forwardServerForm"
    >
      <Row gutter={16}>
        <Col xs={24} sm={12}>
          <Form.Item name="type" label={t('server.type')}>
            <Radio.Group optionType="button" options={[{ value: 'mqtt', label: 'MQTT' }, { value: 'http', label: 'HTTP' }]} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="name" label={t('server.name')} rules={rules(t, { required: true, max: 50 })}>
            <Input maxLength={50} />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="host" label={t('server.host')} rules={[{ required: true, message: t('rule.required') }, zodRule(f.host, t)]}>
            <Input maxLength={255} placeholder="mqtt.example.cn" />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="port" label={t('server.port')} rules={[zodRule(f.port, t)]}>
            <InputNumber style={{ width: '100%' }} precision={0} />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="tls" label={t('server.tls')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        {type === 'http' && (
          <Col span={24}>
            <Form.Item name="path" label={t('server.path')} extra={t('server.pathHelp')} rules={[zodRule(f.path, t, { optional: true })]}>
              <Input maxLength={255} placeholder="/api/cold-chain/readings" />
            </Form.Item>
          </Col>
        )}
        {type !== 'http' && (
          <Col xs={24} sm={12}>
            <Form.Item name="clientId" label={t('server.clientId')} rules={[zodRule(f.clientId, t, { optional: true })]}>
              <Input maxLength={64} />
            </Form.Item>
          </Col>
        )}
        <Col xs={24} sm={12}>
          <Form.Item name="username" label={t('server.username')} rules={rules(t, { max: 64 })}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
        </Col>
        <Col xs={24} sm={12}>
          <Form.Item name="password" label={t('server.password')} extra={row?.hasPassword ? t('server.passwordKept') : undefined}>
            <Input.Password maxLength={128} autoComplete="new-password" placeholder={row?.hasPassword ? '••••••' : undefined} />
          </Form.Item>
        </Col>
        {type !== 'http' && (
          <Col xs={24} sm={12}>
            <Form.Item name="qos" label={t('server.qos')}>
              <Select options={[0, 1, 2].map((q) => ({ value: q, label: t(`qos.${q}`) }))} />
            </Form.Item>
          </Col>
        )}
        <Col xs={12} sm={6}>
          <Form.Item name="timeoutS" label={t('server.timeout')} rules={[zodRule(f.timeoutS, t)]}>
            <InputNumber style={{ width: '100%' }} precision={0} addonAfter="s" />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name="heartbeatS" label={t('server.heartbeat')} rules={[zodRule(f.heartbeatS, t)]}>
            <InputNumber style={{ width: '100%' }} precision={0} addonAfter="s" />
          </Form.Item>
        </Col>
        {type !== 'http' && (
          <>
            <Col xs={24} sm={12}>
              <Form.Item name="pubTopic" label={t('server.pubTopic')} rules={[{ required: true, message: t('rule.pubTopicRequired') }, zodRule(f.pubTopic, t)]}>
                <Input maxLength={64} showCount placeholder="coldchain/readings" />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="subTopic" label={t('server.subTopic')} rules={[zodRule(f.subTopic, t, { optional: true })]}>
                <Input maxLength={64} showCount />
              </Form.Item>
            </Col>
          </>
        )}
        <Col span={24}>
          <Form.Item name="enabled" label={t('server.enabled')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
      </Row>
    </FormDialog>
  );
}
