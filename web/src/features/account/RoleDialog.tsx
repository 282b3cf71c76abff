import { useEffect, useMemo, useState } from 'react';
import { App, Col, Form, Input, Radio, Row, Select, Switch, Tag, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleApi, type RoleType } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { errorMessage } from '../../app/errors';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { ROLE_CODE_FIELDS, rules, serverFieldErrors } from '../sys/formRules';
import { PermissionTree, usePermissionTree, usePermTreeData } from './PermissionTree';
import { fromCheckedKeys, toCheckedKeys } from './permissionTree';
import type { RoleDetail, RoleRow } from './roleTypes';
import { useCustomerOptions, useCustomerScenes } from './shared';

interface Props {
  target: RoleRow | 'new' | null;
  onClose: () => void;
  onDone: () => void;
}

interface Values {
  customerId?: number;
  name: string;
  type: RoleType;
  level: number;
  status: 0 | 1;
  delegable: boolean;
  proxyCustomerIds: number[];
  description?: string;
  sceneIds: number[];
  perms: string[];
}

const FIELDS = ['customerId', 'name', 'type', 'level', 'status', 'delegable', 'proxyCustomerIds', 'description', 'sceneIds', 'resourceIds', 'funcs'];

/** The server's resources and functions are the form's permission tree. */
const toPerms = (x: { name: string; errors: string[] }) => (x.name === 'resourceIds' || x.name === 'funcs' ? { ...x, name: 'perms' } : x);

/** Add or edit a role (spec §3 Role, §5 role rules, §6 levels and functions, §8 408/409/413/415). */
export function RoleDialog({ target, onClose, onDone }: Props) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const { user, userType } = useAuth();
  const [form] = Form.useForm<Values>();
  const { saving, submit: save } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, ROLE_CODE_FIELDS).map(toPerms));
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
      form.setFieldsValue({ customerId: user?.customerId, type: 'normal', status: 1, delegable: false, proxyCustomerIds: [], sceneIds: [], perms: [] });
      return;
    }
    form.setFieldsValue({ customerId: target.customerId, name: target.name, type: target.type, level: target.level, status: target.status === 0 ? 0 : 1, delegable: target.delegable, description: target.description, proxyCustomerIds: [], sceneIds: [], perms: [] });
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

  const submit = () =>
    save(async (v) => {
      const { resourceIds, funcs } = fromCheckedKeys(tree, v.perms ?? [], detail?.resourceIds ?? []);
      const body = {
        name: v.name.trim(),
        status: v.status,
        level: v.level,
        customerId: isNew ? v.customerId : undefined,
        proxyCustomerIds: v.level === -1 ? (v.proxyCustomerIds ?? []) : [],
        resourceIds,
        funcs,
        sceneIds: v.sceneIds ?? [],
        delegable: !!v.delegable,
        isDefault: detail?.isDefault ?? false,
        description: (v.description ?? '').trim(),
      };
      if (isNew) {
        await call(roleApi.add, { body: { ...body, type: v.type } });
        void message.success(t('role.msg.added'));
      } else {
        await call(roleApi.update, { body: { ...body, id: (target as RoleRow).id } });
        void message.success(t('role.msg.updated'));
      }
      onDone();
      onClose();
    });

  return (
    <FormDialog
      open={!!target}
      title={
        <span>
          {isNew ? t('role.form.addTitle') : t('role.form.editTitle')}
          {detail?.isDefault && (
            <Tag color="gold" style={{ marginInlineStart: 8 }}>
              {t('role.default')}
            </Tag>
          )}
        </span>
      }
      width={820}
      top="6vh"
      okText={t('role.form.ok')}
      cancelText={t('role.form.cancel')}
      saving={saving}
      scrollBody
      onSubmit={submit}
      onCancel={onClose}
    >
      <Form form={form} name="roleForm" layout="vertical" size="small">
        <Row gutter={16}>
          {platform && (
            <Col span={12}>
              <Form.Item name="customerId" label={t('role.form.customer')} rules={[{ required: true, message: t('rule.required') }]}>
                <Select
                  disabled={!isNew}
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={customers.isFetching}
                  options={customers.data ?? (detail ? [{ value: detail.customerId, label: detail.customerName }] : [])}
                  onChange={() => form.setFieldsValue({ sceneIds: [], proxyCustomerIds: [] })}
                />
              </Form.Item>
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
          {level === -1 && (
            <Col span={24}>
              <Form.Item
                name="proxyCustomerIds"
                label={t('role.form.proxyCustomers')}
                tooltip={t('role.form.proxyCustomersHint')}
                rules={[{ required: true, type: 'array', min: 1, message: t('rule.proxyRequired') }]}
              >
                <Select
                  mode="multiple"
                  showSearch={{ optionFilterProp: 'label' }}
                  loading={customers.isFetching}
                  options={(customers.data ?? []).filter((c) => c.value !== customerId)}
                />
              </Form.Item>
            </Col>
          )}
          <Col span={12}>
            <Form.Item name="sceneIds" label={t('role.form.scenes')}>
              <TreeSelect
                multiple
                treeCheckable
                showCheckedStrategy={TreeSelect.SHOW_PARENT}
                treeData={scenes.data}
                loading={scenes.loading}
                placeholder={t('role.form.scenesPlaceholder')}
                maxTagCount="responsive"
                treeDefaultExpandAll
                allowClear
              />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="description" label={t('role.form.description')} rules={rules(t, { max: 250 })}>
              <Input maxLength={250} />
            </Form.Item>
          </Col>
          <Col span={24}>
            <Form.Item
              name="perms"
              label={t('role.form.permissions')}
              tooltip={t('role.form.permHint')}
              rules={[{ required: true, type: 'array', min: 1, message: t('rule.resourcesRequired') }]}
            >
              <PermissionTree tree={tree} loading={permTree.isLoading} error={permTree.error} height={300} />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormDialog>
  );
}
