import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button, DatePicker, Form, Input, Select, Space, TreeSelect } from 'antd';
import { ReloadOutlined, SearchOutlined } from '@ant-design/icons';
import dayjs, { type Dayjs } from 'dayjs';
import { useSceneTree, withRoot, type SceneNode } from './OrgTree';
import './searchBar.css';

interface FieldBase {
  name: string;
  /** Already translated label. */
  label: ReactNode;
  placeholder?: string;
  /** Width in px (default 180; ranges 260). */
  width?: number;
}
export type SearchField =
  | (FieldBase & { type: 'input' })
  | (FieldBase & { type: 'select'; options: { label: ReactNode; value: string | number }[]; multiple?: boolean })
  | (FieldBase & { type: 'date' })
  | (FieldBase & { type: 'dateRange' | 'datetimeRange' })
  /** A scene of the organisation tree; the value is the scene code ('all_node' is dropped). */
  | (FieldBase & { type: 'orgTree' });

/** Values handed to onSearch: dates as UTC ms; a range as [start, end] (a date range covers whole days). */
export type SearchValues = Record<string, string | number | (string | number)[] | [number, number] | undefined>;

/** Quick ranges of spec §9: last week, last month (30 days), last three months (90 days). */
export function useRangePresets() {
  const { t } = useTranslation();
  return useMemo(
    () => [
      { label: t('common:range.week'), value: [dayjs().subtract(7, 'day'), dayjs()] as [Dayjs, Dayjs] },
      { label: t('common:range.month'), value: [dayjs().subtract(30, 'day'), dayjs()] as [Dayjs, Dayjs] },
      { label: t('common:range.quarter'), value: [dayjs().subtract(90, 'day'), dayjs()] as [Dayjs, Dayjs] },
    ],
    [t],
  );
}

/** Converts the form's values (dayjs, blanks) to what a request takes. */
export function toSearchValues(fields: readonly SearchField[], raw: Record<string, unknown>): SearchValues {
  const out: SearchValues = {};
  for (const f of fields) {
    const v = raw[f.name];
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (f.type === 'date') out[f.name] = (v as Dayjs).startOf('day').valueOf();
    else if (f.type === 'dateRange') {
      const [a, b] = v as [Dayjs, Dayjs];
      out[f.name] = [a.startOf('day').valueOf(), b.endOf('day').valueOf()];
    } else if (f.type === 'datetimeRange') {
      const [a, b] = v as [Dayjs, Dayjs];
      out[f.name] = [a.valueOf(), b.valueOf()];
    } else if (f.type === 'input') out[f.name] = String(v).trim() || undefined;
    else if (f.type === 'orgTree') out[f.name] = v === 'all_node' ? undefined : (v as string);
    else out[f.name] = v as string | number | (string | number)[];
  }
  return out;
}

interface TreeSelectNode {
  value: string;
  title: string;
  children?: TreeSelectNode[];
}
const toSelect = (n: SceneNode): TreeSelectNode => ({ value: n.code, title: n.label, children: n.children?.map(toSelect) });

function SceneSelect(props: { value?: string; onChange?: (v: string) => void; placeholder?: string; width: number }) {
  const { t } = useTranslation();
  const tree = useSceneTree();
  const data = useMemo(() => (tree.data === undefined ? [] : [toSelect(withRoot(tree.data, t('common:tree.all')))]), [tree.data, t]);
  return (
    <TreeSelect
      showSearch={{ treeNodeFilterProp: 'title' }}
      allowClear
      treeDefaultExpandedKeys={['all_node']}
      loading={tree.isFetching}
      treeData={data}
      value={props.value}
      onChange={props.onChange}
      placeholder={props.placeholder ?? t('common:search.selectScene')}
      style={{ width: props.width }}
    />
  );
}

export interface SearchBarProps {
  fields: SearchField[];
  initialValues?: Record<string, unknown>;
  onSearch: (values: SearchValues) => void;
  /** Called after the fields are cleared (onSearch also runs with the initial values). */
  onReset?: () => void;
  /** Extra buttons on the right (e.g. add, export). */
  extra?: ReactNode;
}

/** A row of filter fields with search and reset buttons (spec §2 'search bar'). */
export function SearchBar({ fields, initialValues, onSearch, onReset, extra }: SearchBarProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm();
  const presets = useRangePresets();

  const control = (f: SearchField) => {
    const w = f.width ?? (f.type === 'dateRange' || f.type === 'datetimeRange' ? 260 : 180);
    switch (f.type) {
      case 'input':
        return <Input allowClear placeholder={f.placeholder ?? t('common:search.input')} style={{ width: w }} onPressEnter={() => form.submit()} />;
      case 'select':
        return <Select allowClear mode={f.multiple ? 'multiple' : undefined} options={f.options} placeholder={f.placeholder ?? t('common:search.select')} style={{ width: w }} />;
      case 'date':
        return <DatePicker style={{ width: w }} />;
      case 'dateRange':
        return <DatePicker.RangePicker presets={presets} style={{ width: w }} />;
      case 'datetimeRange':
        return <DatePicker.RangePicker showTime presets={presets} style={{ width: w + 80 }} />;
      case 'orgTree':
        return <SceneSelect placeholder={f.placeholder} width={w} />;
    }
  };

  return (
    <Form
      form={form}
      layout="inline"
      className="cw-search"
      initialValues={initialValues}
      onFinish={(v) => onSearch(toSearchValues(fields, v))}
      style={{ rowGap: 8, marginBottom: 12 }}
    >
      {fields.map((f) => (
        <Form.Item key={f.name} name={f.name} label={f.label} className="cw-search-field">
          {control(f)}
        </Form.Item>
      ))}
      <Form.Item>
        <Space>
          <Button type="primary" htmlType="submit" icon={<SearchOutlined />}>
            {t('common:action.search')}
          </Button>
          <Button
            icon={<ReloadOutlined />}
            onClick={() => {
              form.resetFields();
              onReset?.();
              onSearch(toSearchValues(fields, form.getFieldsValue()));
            }}
          >
            {t('common:action.reset')}
          </Button>
        </Space>
      </Form.Item>
      {extra && <Form.Item style={{ marginInlineStart: 'auto', marginInlineEnd: 0 }}>{extra}</Form.Item>}
    </Form>
  );
}
