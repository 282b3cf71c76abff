/**
 * The table of a type catalogue (the carrier types; the device types of one kind). The pages
 * differ in what names and describes a type; how many have it, whether it is offered for new
 * ones, its note and when it changed, and how an editType holder switches or edits it, are one
 * thing: switching a type off asks first, naming how many keep it.
 */
import { useState } from 'react';
import { App, Button, Popconfirm, Switch, Table, Tag } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { TypeDialog } from './TypeDialog';

/** What every type row has. */
export interface TypeRow {
  inUse: number;
  enabled: boolean;
  remark: string;
  updatedAt: number | null;
}

export type TypeChange = { enabled: boolean; remark: string };

export interface TypeTableProps<R extends TypeRow> {
  rows: R[];
  loading: boolean;
  rowKey: keyof R & string;
  /** The page's own columns, before the shared ones (name, code, readings…). */
  columns: ColumnsType<R>;
  /** A type's name in the user's language (the switch's label, the dialog's title). */
  name: (r: R) => string;
  /** Saves a type's switch and note (the page's update call). */
  update: (r: R, v: TypeChange) => Promise<unknown>;
  /** Reads the rows again after a save. */
  refetch: () => Promise<unknown>;
  scrollX: number;
}

export function TypeTable<R extends TypeRow>({ rows, loading, rowKey, columns, name, update, refetch, scrollX }: TypeTableProps<R>) {
  const { t } = useTranslation('type');
  const { message } = App.useApp();
  const { can, user } = useAuth();
  const [editing, setEditing] = useState<R | null>(null);
  const editable = can('editType');

  const save = async (r: R, v: TypeChange) => {
    await update(r, v);
    void message.success(t('msg.saved'));
    await refetch();
  };

  const all: ColumnsType<R> = [
    ...columns,
    { title: t('col.inUse'), dataIndex: 'inUse', width: 90, align: 'right' },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 120,
      render: (on: boolean, r) =>
        !editable ? (
          <Tag color={on ? 'green' : 'default'}>{on ? t('on') : t('off')}</Tag>
        ) : on ? (
          <Popconfirm title={t('confirmOff', { name: name(r), count: r.inUse })} okText={t('form.ok')} cancelText={t('form.cancel')} onConfirm={() => save(r, { enabled: false, remark: r.remark })}>
            <Switch checked aria-label={name(r)} />
          </Popconfirm>
        ) : (
          <Switch checked={false} aria-label={name(r)} onChange={() => void save(r, { enabled: true, remark: r.remark })} />
        ),
    },
    { title: t('col.remark'), dataIndex: 'remark', ellipsis: true, render: (v: string) => v || '--' },
    { title: t('col.updated'), dataIndex: 'updatedAt', width: 170, render: (v: number | null) => (v ? formatInZone(v, user?.timeZone) : '--') },
    ...(editable
      ? [
          {
            title: t('col.actions'),
            key: 'actions',
            width: 90,
            render: (_: unknown, r: R) => (
              <Button type="link" size="small" onClick={() => setEditing(r)}>
                {t('edit')}
              </Button>
            ),
          },
        ]
      : []),
  ];

  return (
    <>
      <Table<R> size="small" rowKey={rowKey} loading={loading} columns={all} dataSource={rows} pagination={false} scroll={{ x: scrollX }} />
      <TypeDialog target={editing && { name: name(editing), enabled: editing.enabled, remark: editing.remark }} onClose={() => setEditing(null)} onSave={(v) => save(editing!, v)} />
    </>
  );
}
