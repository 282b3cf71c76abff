/** The user dialog's data: the form filled from the target (then from its detail), and the customers, roles and scenes it offers. */
import { useEffect, useMemo, useState } from 'react';
import { Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { userApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useAuth } from '../../app/auth';
import { useCustomerOptions, useCustomerScenes, useRoleOptions } from './shared';
import { newUserValues, userValues, type UserValues } from './userForm';
import type { UserRow } from './userTypes';

export function useUserForm(form: FormInstance<UserValues>, target: UserRow | 'new' | null) {
  const { t } = useTranslation('account');
  const { user, userType } = useAuth();
  const [detail, setDetail] = useState<UserRow | null>(null);
  const platform = userType === 2 || userType === 3;

  const watchedCustomer = Form.useWatch('customerId', form);
  const customerId: number | undefined = watchedCustomer ?? (target && target !== 'new' ? target.customerId : user?.customerId);
  const roleIds: number[] | undefined = Form.useWatch('roleIds', form);

  const customers = useCustomerOptions(!!target && platform);
  const roles = useRoleOptions(customerId, !!target && customerId !== undefined);
  const scenes = useCustomerScenes(customerId);

  /** A proxy role (level -1) among the chosen ones: the user then works in a proxy customer. */
  const proxyRole = useMemo(() => (roles.data ?? []).some((r) => r.level === -1 && (roleIds ?? []).includes(r.value)), [roles.data, roleIds]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setDetail(null);
    if (target === 'new') {
      form.setFieldsValue(newUserValues(user?.customerId));
      return;
    }
    form.setFieldsValue(userValues(target));
    setDetail(target);
    call(userApi.detail, { query: { id: target.id } }).then(
      (u) => {
        setDetail(u);
        form.setFieldsValue(userValues(u));
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

  return { user, platform, detail, customerId, customers, roles, roleOptions, scenes, proxyRole };
}

export type UserFormData = ReturnType<typeof useUserForm>;
