/** The role form's two sections, columns of one row: what the role is, and what it reaches. */
import { Col, Form, Input, Radio, Select, Switch, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { rules } from '../sys/formRules';
import { CustomerIdField, SceneIdsField } from './accountFields';
import { PermissionTree } from './PermissionTree';
import type { RoleValues } from './roleForm';
import type { RoleFormData } from './useRoleForm';

interface SectionProps {
  form: FormInstance<RoleValues>;
  data: RoleFormData;
  isNew: boolean;
}

/** Customer (platform users), name, type (fixed once saved), level, status, delegable. */
export function RoleBasicFields({ form, data: { platform, detail, customers, typeOptions, levelOptions, roleType }, isNew }: SectionProps) {
  const { t } = useTranslation('account');
  return (
    <>
      {platform && (
        <Col span={12}>
          <CustomerIdField
            label={t('role.form.customer')}
            disabled={!isNew}
            loading={customers.isFetching}
            options={customers.data ?? (detail ? [{ value: detail.customerId, label: detail.customerName }] : [])}
            onChange={() => form.setFieldsValue({ sceneIds: [], proxyCustomerIds: [] })}
          />
        </Col>
      )}
      <Col span={platform ? 12 : 24}>
        <Form.Item name="name" label={t('role.form.name')} rules={rules(t, { required: true, max: 50 })}>
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name="type" label={t('role.form.type')} tooltip={!isNew ? t('role.form.typeFixed') : undefined}>
          <Select disabled={!isNew || typeOptions.length < 2} options={typeOptions} />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name="level" label={t('role.form.level')} rules={[{ required: true, message: t('rule.required') }]}>
          <Select loading={roleType.isFetching} options={levelOptions} />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name="status" label={t('role.form.status')}>
          <Radio.Group options={[1, 0].map((s) => ({ value: s, label: t(`role.status.${s}`) }))} />
        </Form.Item>
      </Col>
      <Col span={6}>
        <Form.Item name="delegable" label={t('role.form.delegable')} tooltip={t('role.form.delegableHint')} valuePropName="checked">
          <Switch size="small" />
        </Form.Item>
      </Col>
    </>
  );
}

/** Proxy customers (level -1), scenes, description, and the permission tree of menus and functions. */
export function RoleReachFields({ data: { level, customers, customerId, scenes, tree, permTree } }: SectionProps) {
  const { t } = useTranslation('account');
  return (
    <>
      {level === -1 && (
        <Col span={24}>
          <Form.Item
            name="proxyCustomerIds"
            label={t('role.form.proxyCustomers')}
            tooltip={t('role.form.proxyCustomersHint')}
            rules={[{ required: true, type: 'array', min: 1, message: t('rule.proxyRequired') }]}
          >
            <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} loading={customers.isFetching} options={(customers.data ?? []).filter((c) => c.value !== customerId)} />
          </Form.Item>
        </Col>
      )}
      <Col span={12}>
        <SceneIdsField label={t('role.form.scenes')} placeholder={t('role.form.scenesPlaceholder')} scenes={scenes} />
      </Col>
      <Col span={12}>
        <Form.Item name="description" label={t('role.form.description')} rules={rules(t, { max: 250 })}>
          <Input maxLength={250} />
        </Form.Item>
      </Col>
      <Col span={24}>
        <Form.Item name="perms" label={t('role.form.permissions')} tooltip={t('role.form.permHint')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.resourcesRequired') }]}>
          <PermissionTree tree={tree} loading={permTree.isLoading} error={permTree.error} height={300} />
        </Form.Item>
      </Col>
    </>
  );
}
