import { useEffect } from 'react';
import { App, Form, Input, InputNumber, Select, Switch } from 'antd';
import { useTranslation } from 'react-i18next';
import { guideApi, guideCode, type GuideGroupRow, type GuideItemRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { serverFieldErrors, trimmed, zodRule } from '../sys/formRules';

/*
 * The guide's editors for platform staff (spec §3 "Guide group and item", §7 guide/*): a group
 * (code, names, order, shown) and an article (group, code, names, the console page it explains,
 * its text in both languages, order, shown). One name is enough: the other language shows it.
 */

interface Common {
  code: string;
  nameZh?: string;
  nameEn?: string;
  sort: number;
  status: boolean;
}

function useEditor<V extends Common>(target: unknown, initial: () => Partial<V>, fields: string[]) {
  const { t } = useTranslation('help');
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const { saving, submit } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, fields, {}));
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    form.setFieldsValue(initial() as Parameters<typeof form.setFieldsValue>[0]);
    // initial is read when the target changes.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target, form]);
  const common = (v: V) => ({ code: trimmed(v.code), nameZh: trimmed(v.nameZh), nameEn: trimmed(v.nameEn), sort: v.sort ?? 0, status: (v.status ? 1 : 0) as 0 | 1 });
  const saved = (added: boolean) => void message.success(added ? t('admin.added') : t('admin.updated'));
  return { t, form, saving, submit, common, saved };
}

/** Code, names, order and shown: the fields a group and an article share. */
function CommonFields() {
  const { t } = useTranslation('help');
  const oneName = ({ getFieldValue }: { getFieldValue: (n: string) => unknown }) => ({
    validator: () => (trimmed(getFieldValue('nameZh') as string) || trimmed(getFieldValue('nameEn') as string) ? Promise.resolve() : Promise.reject(new Error(t('admin.nameRequired')))),
  });
  return (
    <>
      <Form.Item name="code" label={t('admin.code')} rules={[{ required: true, message: t('admin.codeRequired') }, zodRule(guideCode, t)]} extra={t('admin.codeHelp')}>
        <Input maxLength={50} />
      </Form.Item>
      <Form.Item name="nameZh" label={t('admin.nameZh')} dependencies={['nameEn']} rules={[oneName]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="nameEn" label={t('admin.nameEn')} dependencies={['nameZh']} rules={[oneName]}>
        <Input maxLength={100} />
      </Form.Item>
      <div style={{ display: 'flex', gap: 24 }}>
        <Form.Item name="sort" label={t('admin.sort')} rules={[{ required: true, message: t('admin.sortRequired') }]}>
          <InputNumber min={0} max={9999} precision={0} style={{ width: 140 }} />
        </Form.Item>
        <Form.Item name="status" label={t('admin.shown')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </div>
    </>
  );
}

export function GuideGroupDialog({ target, onClose, onDone }: { target: GuideGroupRow | 'new' | null; onClose: () => void; onDone: () => void }) {
  const { t, form, saving, submit, common, saved } = useEditor<Common>(target, () => (target === 'new' ? { sort: 100, status: true } : { ...(target as GuideGroupRow), status: (target as GuideGroupRow).status === 1 }), ['code', 'nameZh', 'nameEn', 'sort']);
  const save = () =>
    submit(async (v) => {
      if (target === 'new') await call(guideApi.groupAdd, { body: common(v) });
      else await call(guideApi.groupUpdate, { body: { ...common(v), id: (target as GuideGroupRow).id } });
      saved(target === 'new');
      onDone();
      onClose();
    });
  return (
    <FormDialog open={!!target} title={target === 'new' ? t('admin.addGroup') : t('admin.editGroup')} okText={t('admin.save')} cancelText={t('admin.cancel')} saving={saving} onSubmit={save} onCancel={onClose} form={form} formName="guideGroupForm">
      <CommonFields />
    </FormDialog>
  );
}

interface ItemValues extends Common {
  groupId: number;
  path?: string;
  contentZh?: string;
  contentEn?: string;
}

export function GuideItemDialog({ target, groups, groupId, onClose, onDone }: { target: GuideItemRow | 'new' | null; groups: GuideGroupRow[]; groupId?: number; onClose: () => void; onDone: () => void }) {
  const { i18n } = useTranslation('help');
  const initial = () => (target === 'new' ? { groupId, sort: 100, status: true } : { ...(target as GuideItemRow), status: (target as GuideItemRow).status === 1 });
  const { t, form, saving, submit, common, saved } = useEditor<ItemValues>(target, initial, ['groupId', 'code', 'nameZh', 'nameEn', 'path', 'contentZh', 'contentEn', 'sort']);
  const save = () =>
    submit(async (v) => {
      const body = { ...common(v), groupId: v.groupId, path: trimmed(v.path), contentZh: v.contentZh ?? '', contentEn: v.contentEn ?? '' };
      if (target === 'new') await call(guideApi.add, { body });
      else await call(guideApi.update, { body: { ...body, id: (target as GuideItemRow).id } });
      saved(target === 'new');
      onDone();
      onClose();
    });
  const zh = i18n.language.startsWith('zh');
  return (
    <FormDialog
      open={!!target}
      title={target === 'new' ? t('admin.addItem') : t('admin.editItem')}
      okText={t('admin.save')}
      cancelText={t('admin.cancel')}
      saving={saving}
      onSubmit={save}
      onCancel={onClose}
      form={form}
      formName="guideItemForm"
      width={760}
      scrollBody
    >
      <Form.Item name="groupId" label={t('admin.group')} rules={[{ required: true, message: t('admin.groupRequired') }]}>
        <Select options={groups.map((g) => ({ value: g.id, label: (zh ? g.nameZh : g.nameEn) || g.nameZh || g.nameEn }))} />
      </Form.Item>
      <CommonFields />
      <Form.Item name="path" label={t('admin.path')} extra={t('admin.pathHelp')}>
        <Input maxLength={200} placeholder="/abnormal/dataex" />
      </Form.Item>
      <Form.Item name="contentZh" label={t('admin.contentZh')} extra={t('admin.contentHelp')}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} maxLength={20_000} />
      </Form.Item>
      <Form.Item name="contentEn" label={t('admin.contentEn')}>
        <Input.TextArea autoSize={{ minRows: 4, maxRows: 14 }} maxLength={20_000} />
      </Form.Item>
    </FormDialog>
  );
}
