/** Form fields the user and role dialogs share: the owning customer and the associated scenes. */
import { Form, Select, TreeSelect } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Option, SceneOption } from './shared';

/** The customer a user or role belongs to (platform users only); fixed once saved. */
export function CustomerIdField({ label, disabled, options, loading, onChange }: { label: string; disabled: boolean; options: Option[]; loading: boolean; onChange: () => void }) {
  const { t } = useTranslation('account');
  return (
    <Form.Item name="customerId" label={label} rules={[{ required: true, message: t('rule.required') }]}>
      <Select disabled={disabled} showSearch={{ optionFilterProp: 'label' }} loading={loading} options={options} onChange={onChange} />
    </Form.Item>
  );
}

/** The scenes a user or role is limited to, from the customer's tree (empty: the whole customer). */
export function SceneIdsField({ label, tooltip, placeholder, scenes }: { label: string; tooltip?: string; placeholder: string; scenes: { data: SceneOption[]; loading: boolean } }) {
  return (
    <Form.Item name="sceneIds" label={label} tooltip={tooltip}>
      <TreeSelect
        multiple
        treeCheckable
        showCheckedStrategy={TreeSelect.SHOW_PARENT}
        treeData={scenes.data}
        loading={scenes.loading}
        placeholder={placeholder}
        maxTagCount="responsive"
        treeDefaultExpandAll
        allowClear
      />
    </Form.Item>
  );
}
