/** The user form's two sections, columns of one row: who the user is, and what it may reach. */
import { Col, Form, Input, Radio, Select, Tag, Typography, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { userAccount, userEmail, userMobile, userPassword } from '@coldwatch/contract';
import { rules, zodRule } from '../sys/formRules';
import { CustomerIdField, SceneIdsField } from './accountFields';
import type { UserValues } from './userForm';
import type { UserFormData } from './useUserForm';

interface SectionProps {
  form: FormInstance<UserValues>;
  data: UserFormData;
  isNew: boolean;
}

/** Customer (platform users), default-account mark, account, name, mobile, e-mail, gender, status. */
export function UserIdentityFields({ form, data: { platform, detail, customers, user }, isNew }: SectionProps) {
  const { t } = useTranslation('account');
  return (
    <>
      {platform && (
        <Col span={12}>
          <CustomerIdField
            label={t('user.form.customer')}
            disabled={!isNew}
            loading={customers.isFetching}
            options={customers.data ?? (detail ? [{ value: detail.customerId, label: detail.customerName }] : [])}
            onChange={() => form.setFieldsValue({ roleIds: [], sceneIds: [], proxyCustomerId: null })}
          />
        </Col>
      )}
      <Col span={12}>
        <Form.Item label={t('user.form.defaultAccount')}>
          {detail?.defaultAccount ? <Tag color="gold">{t('user.form.defaultYes')}</Tag> : <Typography.Text type="secondary">{t('user.form.defaultNo')}</Typography.Text>}
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="account" label={t('user.form.account')} tooltip={t('user.form.accountHint')} rules={[zodRule(userAccount, t)]} required>
          <Input maxLength={50} autoComplete="off" />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="name" label={t('user.form.name')} rules={rules(t, { required: true, max: 50 })}>
          <Input maxLength={50} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="mobile" label={t('user.form.mobile')} rules={[zodRule(userMobile, t)]} required>
          <Input maxLength={20} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="email" label={t('user.form.email')} rules={[zodRule(userEmail, t, { optional: true })]}>
          <Input maxLength={100} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="gender" label={t('user.form.gender')}>
          <Radio.Group options={[1, 0].map((g) => ({ value: g, label: t(`user.gender.${g}`) }))} />
        </Form.Item>
      </Col>
      <Col span={12}>
        <Form.Item name="status" label={t('user.form.status')} rules={[{ required: true, message: t('rule.status') }]}>
          {/* Nobody disables their own account. */}
          <Radio.Group disabled={!isNew && detail?.id === user?.id} options={[1, 0].map((s) => ({ value: s, label: t(`user.status.${s}`) }))} />
        </Form.Item>
      </Col>
    </>
  );
}

/** Roles, proxy customer (with a proxy role), scenes, initial password (new users), remarks. */
export function UserAccessFields({ data: { roles, roleOptions, proxyRole, customers, customerId, scenes }, isNew }: SectionProps) {
  const { t } = useTranslation('account');
  return (
    <>
      <Col span={24}>
        <Form.Item
          name="roleIds"
          label={t('user.form.roles')}
          rules={[{ required: true, type: 'array', min: 1, message: t('rule.roleRequired') }]}
          extra={roles.data && roles.data.length === 0 ? t('user.form.noRoles') : undefined}
        >
          <Select mode="multiple" loading={roles.isFetching} options={roleOptions} placeholder={t('user.form.rolesPlaceholder')} optionFilterProp="label" />
        </Form.Item>
      </Col>
      {proxyRole && (
        <Col span={12}>
          <Form.Item name="proxyCustomerId" label={t('user.form.proxyCustomer')} tooltip={t('user.form.proxyCustomerHint')}>
            <Select allowClear showSearch={{ optionFilterProp: 'label' }} options={(customers.data ?? []).filter((c) => c.value !== customerId)} />
          </Form.Item>
        </Col>
      )}
      <Col span={proxyRole ? 12 : 24}>
        <SceneIdsField label={t('user.form.scenes')} tooltip={t('user.form.scenesHint')} placeholder={t('user.form.scenesPlaceholder')} scenes={scenes} />
      </Col>
      {isNew && (
        <Col span={12}>
          <Form.Item name="password" label={t('user.form.password')} extra={t('user.form.passwordHint')} rules={[zodRule(userPassword, t, { optional: true })]}>
            <Input.Password maxLength={20} autoComplete="new-password" />
          </Form.Item>
        </Col>
      )}
      <Col span={isNew ? 12 : 24}>
        <Form.Item name="remarks" label={t('user.form.remarks')} rules={rules(t, { max: 250 })}>
          <Input.TextArea rows={isNew ? 1 : 2} maxLength={250} />
        </Form.Item>
      </Col>
    </>
  );
}
