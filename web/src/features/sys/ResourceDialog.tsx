import { useEffect, useMemo } from 'react';
import { App, Col, Form, Input, InputNumber, Row, Select, Switch, TreeSelect, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { ALL_FUNCS, resourceBody } from '@coldwatch/contract';
import { resourceApi } from '@coldwatch/contract';
import { call } from '../../api/call';
import { FormDialog, useDialogSubmit } from '../../ui/FormDialog';
import { useMenuTitle } from '../account/shared';
import { MENU_CODE_FIELDS, rules, serverFieldErrors, zodRule } from './formRules';
import { subtreeIds, type ResourceNode } from './resourceTypes';

interface Props {
  target: { node?: ResourceNode; parentId: number | null } | null;
  tree: ResourceNode[];
  onClose: () => void;
  onDone: () => void;
}

interface Values {
  parentId: number | null;
  code: string;
  name: string;
  url?: string;
  icon?: string;
  hidden: boolean;
  enabled: boolean;
  visible: 'all' | 'admin' | 'system';
  funcObject: string | null;
  extraCode?: string;
  accessLevel: number;
  sort: number;
}

const FIELDS = ['parentId', 'code', 'name', 'url', 'icon', 'hidden', 'enabled', 'visible', 'funcObject', 'extraCode', 'accessLevel', 'sort'];
/** Function objects: every X with a viewX code (spec §6). */
const OBJECTS = ALL_FUNCS.filter((f) => f.startsWith('view')).map((f) => f.slice(4));
const NONE = '__none__';

/** Add or edit a menu resource (spec §3, §5 name and code required and unique, §8 407/408). */
/** A parent the entry may go under, in the parent picker. */
interface ParentOption {
  value: number;
  title: string;
  children?: ParentOption[];
}

export function ResourceDialog({ target, tree, onClose, onDone }: Props) {
  const { t } = useTranslation('resource');
  const { message } = App.useApp();
  const menuTitle = useMenuTitle();
  const [form] = Form.useForm<Values>();
  const { saving, submit: save } = useDialogSubmit(form, t, (e) => serverFieldErrors(e, FIELDS, MENU_CODE_FIELDS));
  const editing = target?.node;
  const funcObject = Form.useWatch('funcObject', form);

  const parentData = useMemo(() => {
    const banned = new Set(editing ? subtreeIds(editing) : []);
    const conv = (ns: ResourceNode[]): ParentOption[] =>
      ns.filter((n) => !banned.has(n.id)).map((n) => ({ value: n.id, title: `${menuTitle(n.code, n.name)} (${n.code})`, children: n.children ? conv(n.children) : undefined }));
    return [{ value: NONE, title: t('form.parentNone') }, ...conv(tree)];
  }, [tree, editing, menuTitle, t]);

  useEffect(() => {
    if (!target) return;
    form.resetFields();
    if (target.node) {
      const n = target.node;
      form.setFieldsValue({ ...n, parentId: (n.parentId ?? NONE) as number | null, funcObject: n.funcObject ?? NONE, visible: n.visible as Values['visible'] });
    } else {
      form.setFieldsValue({ parentId: (target.parentId ?? NONE) as number | null, hidden: false, enabled: true, visible: 'all', funcObject: NONE, accessLevel: 0, sort: 0 });
    }
  }, [target, form]);

  const submit = () =>
    save(async (v) => {
      const body = {
        parentId: v.parentId === (NONE as unknown) || v.parentId === undefined ? null : v.parentId,
        code: v.code.trim(),
        name: v.name.trim(),
        url: (v.url ?? '').trim(),
        icon: (v.icon ?? '').trim(),
        hidden: !!v.hidden,
        enabled: !!v.enabled,
        visible: v.visible,
        funcObject: v.funcObject === NONE ? null : v.funcObject,
        extraCode: (v.extraCode ?? '').trim(),
        accessLevel: v.accessLevel,
        sort: v.sort ?? 0,
      };
      if (editing) {
        await call(resourceApi.update, { body: { ...body, id: editing.id } });
        void message.success(t('msg.updated'));
      } else {
        await call(resourceApi.add, { body });
        void message.success(t('msg.added'));
      }
      onDone();
      onClose();
    });

  const fo = funcObject && funcObject !== NONE ? funcObject : null;

  return (
    <FormDialog
      open={!!target}
      title={editing ? t('form.editTitle') : t('form.addTitle')}
      width={680}
      okText={t('form.ok')}
      cancelText={t('form.cancel')}
      saving={saving}
      onSubmit={submit}
      onCancel={onClose}
    >
      <Form form={form} name="resourceForm" layout="vertical" size="small">
        <Row gutter={16}>
          <Col span={24}>
            <Form.Item name="parentId" label={t('form.parent')}>
              <TreeSelect treeData={parentData} showSearch={{ treeNodeFilterProp: 'title' }} treeDefaultExpandAll={false} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="code" label={t('form.code')} tooltip={t('form.codeHint')} rules={[...rules(t, { required: true }), zodRule(resourceBody.shape.code, t)]}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="name" label={t('form.name')} tooltip={t('form.nameHint')} rules={rules(t, { required: true, max: 50 })}>
              <Input maxLength={50} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="url" label={t('form.url')} rules={rules(t, { max: 100 })}>
              <Input maxLength={100} placeholder="/section/page" />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="icon" label={t('form.icon')} rules={rules(t, { max: 30 })}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="visible" label={t('form.visible')}>
              <Select options={['all', 'admin', 'system'].map((v) => ({ value: v, label: t(`visible.${v}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="accessLevel" label={t('form.accessLevel')}>
              <Select options={[0, 1, 2, 3, 4].map((v) => ({ value: v, label: t(`accessLevel.${v}`) }))} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="funcObject" label={t('form.funcObject')} tooltip={t('form.funcObjectHint')} extra={fo && <Typography.Text type="secondary" style={{ fontSize: 12 }}>{`view${fo}, new${fo}, edit${fo}, remove${fo}`}</Typography.Text>}>
              <Select showSearch options={[{ value: NONE, label: t('form.funcObjectNone') }, ...OBJECTS.map((o) => ({ value: o, label: o }))]} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item name="extraCode" label={t('form.extraCode')} rules={rules(t, { max: 30 })}>
              <Input maxLength={30} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="sort" label={t('form.sort')}>
              <InputNumber min={0} max={99999} precision={0} style={{ width: '100%' }} />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="hidden" label={t('form.hidden')} valuePropName="checked">
              <Switch size="small" />
            </Form.Item>
          </Col>
          <Col span={8}>
            <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked">
              <Switch size="small" />
            </Form.Item>
          </Col>
        </Row>
      </Form>
    </FormDialog>
  );
}
