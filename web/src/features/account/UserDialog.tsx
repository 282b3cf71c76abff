import { App, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { userApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { FormSection } from '../../ui/FormSection';
import { USER_CODE_FIELDS, serverFieldErrors } from '../sys/formRules';
import { UserAccessFields, UserIdentityFields } from './UserFields';
import { USER_FIELDS, userBody, type UserValues } from './userForm';
import { useUserForm } from './useUserForm';
import type { UserRow } from './userTypes';

interface Props {
  target: UserRow | 'new' | null;
  onClose: () => void;
  /** After a save; `password` is the temporary password of a new user (shown once). */
  onDone: (created?: { account: string; password: string }) => void;
}

/** Add or edit a user (spec §3 User, §5 user rules, §8 412–419). */
export function UserDialog({ target, onClose, onDone }: Props) {
  const { t } = useTranslation('account');
  const { message } = App.useApp();
  const [form] = Form.useForm<UserValues>();
  const { saving, submit: save } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, USER_FIELDS, USER_CODE_FIELDS));
  const data = useUserForm(form, target);
  const isNew = target === 'new';

  const submit = () =>
    save(async (v) => {
      const body = userBody(v, data);
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
      form={form}
      formName="userForm"
    >
      <FormSection>
        <UserIdentityFields form={form} data={data} isNew={isNew} />
        <UserAccessFields form={form} data={data} isNew={isNew} />
      </FormSection>
    </FormDialog>
  );
}
