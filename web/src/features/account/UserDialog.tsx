import { useEffect, useMemo, useState } from 'react';
import { App, Col, Form, Input, Radio, Row, Select, Tag, TreeSelect, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { userAccount, userApi, userEmail, userMobile, userPassword } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useAuth } from '../../app/auth';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { USER_CODE_FIELDS, rules, serverFieldErrors, zodRule } from '../sys/formRules';
import { useCustomerOptions, useCustomerScenes, useRoleOptions } from './shared';
import type { UserRow } from './userTypes';

interface Props {
  target: UserRow | 'new' | null;
  onClose: () => void;
  /** After a save; `password` is the temporary password of a new user (shown once). */
  onDone: (created?: { account: string; password: string }) => void;
}

interface Values {
  customerId?: number;
  account: string;
  name: string;
  gender: 0 | 1;
  status: 0 | 1;
  roleIds: number[];
  mobile: string;
  email?: string;
  remarks?: string;
  sceneIds: number[];
  proxyCustomerId?: number | null;
  password?: string;
}

const FIELDS = ['customerId', 'account', 'name', 'gender', 'status', 'roleIds', 'mobile', 'email', 'remarks', 'sceneIds', 'proxyCustomerId', 'password'];

/** Add or edit a user (spec §3 User, §5 user rules, §8 412–419). */
export function UserDialog({ target, onClose, onDone }: Props) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const { user, userType } = useAuth();
  const [form] = Form.useForm<Values>();
  const { saving, submit: save } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, USER_CODE_FIELDS));
  const [detail, setDetail] = useState<UserRow | null>(null);
  const isNew = target === 'new';
  const platform = userType === 2 || userType === 3;

  const watchedCustomer = Form.useWatch('customerId', form);
  const customerId: number | undefined = watchedCustomer ?? (target && target !== 'new' ? target.customerId : user?.customerId);
  const roleIds: number[] | undefined = Form.useWatch('roleIds', form);

  const customers = useCustomerOptions(!!target && platform);
  const roles = useRoleOptions(customerId, !!target && customerId !== undefined);
  const scenes = useCustomerScenes(customerId);

  const proxyRole = useMemo(() => (roles.data ?? []).some((r) => r.level === -1 && (roleIds ?? []).includes(r.value)), [roles.data, roleIds]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setDetail(null);
    if (target === 'new') {
      form.setFieldsValue({ customerId: user?.customerId, gender: 1, status: 1, roleIds: [], sceneIds: [] });
      return;
    }
    const fill = (u: UserRow) =>
      form.setFieldsValue({
        customerId: u.customerId,
        account: u.account,
        name: u.name,
        gender: u.gender === 0 ? 0 : 1,
        status: u.status === 0 ? 0 : 1,
        roleIds: u.roles.map((r) => r.id),
        mobile: u.mobile ?? '',
        email: u.email ?? '',
        remarks: u.remarks,
        sceneIds: u.sceneIds,
        proxyCustomerId: u.proxyCustomerId,
      });
    fill(target);
    setDetail(target);
    call(userApi.detail, { query: { id: target.id } }).then(
      (u) => {
        setDetail(u);
        fill(u);
      },
      () => undefined,
    );
  }, [target, form, user]);

  const roleOptions = useMemo(
    () =>
      (roles.data ?? []).map((r) => ({
        value: r.value,
        label: r.label,
        disabled: r.status !== 1,
        title: t(`role.level.${r.level}`),
      })),
    [roles.data, t],
  );

  const submit = () =>
    save(async (v) => {
      const body = {
        account: v.account.trim(),
        name: v.name.trim(),
        gender: v.gender,
        status: v.status,
        roleIds: v.roleIds,
        mobile: v.mobile.trim(),
        email: (v.email ?? '').trim(),
        remarks: (v.remarks ?? '').trim(),
        sceneIds: v.sceneIds ?? [],
        proxyCustomerId: proxyRole ? (v.proxyCustomerId ?? null) : null,
        customerId: platform ? (v.customerId ?? null) : undefined,
      };
      if (isNew) {
        const res = await call(userApi.add, { body: { ...body, password: v.password || undefined } });
        void message.success(t('user.msg.added'));
        onDone(res.password ? { account: body.account, password: res.password } : undefined);
      } else {
        await call(userApi.update, { body: { ...body, id: (target as UserRow).id } });
        void message.success(t('user.msg.updated'));
        onDone();
      }
      onClose();
    });

  const req = { required: true, message: t('rule.required') };

  return (
    <FormDialog
      open={!!target}
      title={isNew ? t('user.form.addTitle') : t('user.form.editTitle')}
      width={720}
      okText={t('user.form.ok')}
      cancelText={t('user.form.cancel')}
      saving={saving}
      scrollBody
      onSubmit={submit}
      onCancel={onClose}
    >
      <Form form={form} name="userForm" layout="vertical" size="small">
        <Row gutter={16}>
          {platform && (
            <Col span={12}>
              <Form.Item name="customerId" label={t('user.form.customer')} rules={[req]}>
                <Select
                  disabled={!isNew}
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={customers.isFetching}
                  options={customers.data ?? (detail ? [{ value: detail.customerId, label: detail.customerName }] : [])}
                  onChange={() => form.setFieldsValue({ roleIds: [], sceneIds: [], proxyCustomerId: null })}
                />
              </Form.Item>
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
              <Radio.Group disabled={!isNew && detail?.id === user?.id} options={[1, 0].map((s) => ({ value: s, label: t(`user.status.${s}`) }))} />
            </Form.Item>
          </Col>
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
            <Form.Item name="sceneIds" label={t('user.form.scenes')} tooltip={t('user.form.scenesHint')}>
              <TreeSelect
                multiple
                treeCheckable
                showCheckedStrategy={TreeSelect.SHOW_PARENT}
                treeData={scenes.data}
                loading={scenes.loading}
                placeholder={t('user.form.scenesPlaceholder')}
                maxTagCount="responsive"
                treeDefaultExpandAll
                allowClear
              />
            </Form.Item>
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
        </Row>
      </Form>
    </FormDialog>
  );
}
