import { App, Form, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { roleApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { FormSection } from '../../ui/FormSection';
import { ROLE_CODE_FIELDS, serverFieldErrors } from '../sys/formRules';
import { RoleBasicFields, RoleReachFields } from './RoleFields';
import { ROLE_FIELDS, roleBody, toPerms, type RoleValues } from './roleForm';
import type { RoleRow } from './roleTypes';
import { useRoleForm } from './useRoleForm';

interface Props {
  target: RoleRow | 'new' | null;
  onClose: () => void;
  onDone: () => void;
}

/** Add or edit a role (spec §3 Role, §5 role rules, §6 levels and functions, §8 408/409/413/415). */
export function RoleDialog({ target, onClose, onDone }: Props) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const [form] = Form.useForm<RoleValues>();
  const { saving, submit: save } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, ROLE_FIELDS, ROLE_CODE_FIELDS).map(toPerms));
  const data = useRoleForm(form, target);
  const { detail } = data;
  const isNew = target === 'new';

  const submit = () =>
    save(async (v) => {
      const body = roleBody(v, data.tree, detail, isNew);
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
      form={form}
      formName="roleForm"
    >
      <FormSection>
        <RoleBasicFields form={form} data={data} isNew={isNew} />
        <RoleReachFields form={form} data={data} isNew={isNew} />
      </FormSection>
    </FormDialog>
  );
}
