/** A supervision platform (spec §3 Platform: code, name, vendor code, app id, key) over one of the customer's servers. */
import { Form, Input, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { code, forwardingApi, type ForwardPlatformRow } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { FormDialog, useRecordDialog } from '../../ui/FormDialog';
import { rules, serverFieldErrors, trimmed, zodRule } from '../sys/formRules';

const FIELDS = ['serverId', 'code', 'name', 'vendorCode', 'appId', 'key'];

interface Values {
  serverId: number;
  code: string;
  name: string;
  vendorCode?: string;
  appId: string;
  key?: string;
}

export function PlatformDialog({ target, onClose, onDone }: { target: ForwardPlatformRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation('forwarding');
  const targets = useCall(forwardingApi.targets, {}, { enabled: !!target });
  const { form, row, saving, save } = useRecordDialog<ForwardPlatformRow, Values>({
    target,
    t,
    errors: (e) => serverFieldErrors(e, FIELDS, { 420: 'code', 500000: 'appId' }),
    values: (r) => (r === 'new' ? {} : { ...r, key: '' }),
    onDone,
    onClose,
  });
  const submit = () =>
    save({ add: forwardingApi.platformAdd, update: forwardingApi.platformUpdate, added: t('msg.added'), updated: t('msg.updated') }, (v) => ({
      serverId: v.serverId,
      code: trimmed(v.code),
      name: trimmed(v.name),
      vendorCode: trimmed(v.vendorCode),
      appId: trimmed(v.appId),
      key: v.key ?? '',
    }));
  const servers = (targets.data ?? []).filter((x) => x.kind === 'server');
  return (
    <FormDialog
      open={!!target}
      title={row ? t('platform.editTitle') : t('platform.addTitle')}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={submit}
      onCancel={onClose}
      form={form}
      formName="forwardPlatformForm"
    >
      <Form.Item name="serverId" label={t('platform.server')} rules={[{ required: true, message: t('rule.required') }]} extra={t('platform.serverHelp')}>
        <Select options={servers.map((s) => ({ value: s.id, label: s.name }))} />
      </Form.Item>
      <Form.Item name="code" label={t('platform.code')} rules={[{ required: true, message: t('rule.required') }, zodRule(code(20), t)]}>
        <Input maxLength={20} />
      </Form.Item>
      <Form.Item name="name" label={t('platform.name')} rules={rules(t, { required: true, max: 50 })}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="vendorCode" label={t('platform.vendorCode')} rules={rules(t, { max: 20 })}>
        <Input maxLength={20} />
      </Form.Item>
      <Form.Item name="appId" label={t('platform.appId')} rules={rules(t, { required: true, max: 64 })}>
        <Input maxLength={64} />
      </Form.Item>
      <Form.Item name="key" label={t('platform.key')} extra={row?.hasKey ? t('platform.keyKept') : t('platform.keyHelp')}>
        <Input.Password maxLength={128} autoComplete="new-password" placeholder={row?.hasKey ? '••••••' : undefined} />
      </Form.Item>
    </FormDialog>
  );
}
