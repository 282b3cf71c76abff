/**
 * The role dialog's data: the form filled from the role and then its detail (its permissions as
 * checked keys once the tree is here), the levels and types the caller may give, and the
 * customers, scenes and permission tree it offers.
 */
import { useEffect, useMemo, useState } from 'react';
import { App, Form, type FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { usePermissionTree, usePermTreeData } from './PermissionTree';
import { toCheckedKeys } from './permissionTree';
import { newRoleValues, roleValues, type RoleValues } from './roleForm';
import type { RoleDetail, RoleRow } from './roleTypes';
import { useCustomerOptions, useCustomerScenes } from './shared';

export function useRoleForm(form: FormInstance<RoleValues>, target: RoleRow | 'new' | null) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const { user, userType } = useAuth();
  const [detail, setDetail] = useState<RoleDetail | null>(null);
  const isNew = target === 'new';
  const platform = userType === 2 || userType === 3;

  const customerId: number | undefined = Form.useWatch('customerId', form) ?? (detail?.customerId ?? user?.customerId);
  const level: number | undefined = Form.useWatch('level', form);

  const customers = useCustomerOptions(!!target);
  const scenes = useCustomerScenes(customerId);
  const permTree = usePermissionTree();
  const tree = usePermTreeData(permTree.data);
  const roleType = useCall(roleApi.roleType, { query: { customerId } }, { enabled: !!target });

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setDetail(null);
    if (target === 'new') {
      form.setFieldsValue(newRoleValues(user?.customerId));
      return;
    }
    form.setFieldsValue(roleValues(target));
    call(roleApi.detail, { query: { id: target.id } }).then(
      (d) => setDetail(d),
      (e) => void message.error({ content: errorMessage(e, t), duration: 1 }),
    );
  }, [target, form, user, message, t]);

  // The role's functions become checked keys once both the detail and the tree are here.
  useEffect(() => {
    if (!detail) return;
    form.setFieldsValue({
      proxyCustomerIds: detail.proxyCustomerIds,
      sceneIds: detail.sceneIds,
      perms: toCheckedKeys(tree, detail.resourceIds, detail.funcs),
    });
  }, [detail, tree, form]);

  // A new role's level defaults to the lowest the caller may give (0 if allowed).
  useEffect(() => {
    const levels = roleType.data?.levels;
    if (!isNew || !levels?.length) return;
    const cur = form.getFieldValue('level');
    if (cur === undefined || !levels.includes(cur)) form.setFieldValue('level', levels.includes(0) ? 0 : levels[0]);
  }, [roleType.data, isNew, form]);

  const levelOptions = useMemo(() => {
    const ls = new Set(roleType.data?.levels ?? []);
    // A proxy role governs other customers: without a customer list to choose them from, it cannot be made here.
    if (!customers.data?.length) ls.delete(-1);
    if (detail) ls.add(detail.level);
    return [...ls].sort((a, b) => a - b).map((l) => ({ value: l, label: t(`role.level.${l}`) }));
  }, [roleType.data, detail, t, customers.data]);

  const typeOptions = useMemo(() => {
    const ts = new Set(roleType.data?.types ?? ['normal']);
    if (detail) ts.add(detail.type);
    return [...ts].map((x) => ({ value: x, label: t(`role.type.${x}`, { defaultValue: x }) }));
  }, [roleType.data, detail, t]);

  return { platform, detail, customerId, level, customers, scenes, permTree, tree, roleType, levelOptions, typeOptions };
}

export type RoleFormData = ReturnType<typeof useRoleForm>;
