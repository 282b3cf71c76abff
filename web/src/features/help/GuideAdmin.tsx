import { useState } from 'react';
import { Button, Card, Space, Switch, Table, Tag, Typography, type TableProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { guideApi, type GuideGroupRow, type GuideItemRow } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { AddButton, linkActionsColumn } from '../../ui';
import { PhoneRows, type PhoneTable } from '../../ui/PhoneRows';
import { usePhone } from '../../ui/useNarrow';
import { GuideGroupDialog, GuideItemDialog } from './GuideDialogs';

/**
 * The guide for platform staff (spec §7 guide/*; docs/help.md): its groups and, for the chosen
 * group, its articles, hidden ones too; add, change, show or hide, delete. The online help, the
 * /guide window and the guided tour read what is shown. On a phone both lists are cards (a table
 * there showed two columns and scrolled sideways), a group's articles opened by its "Articles".
 */
export function GuideAdmin() {
  const { t, i18n } = useTranslation('help');
  const { can } = useAuth();
  const zh = i18n.language.startsWith('zh');
  const nameOf = (r: { nameZh: string; nameEn: string }) => (zh ? r.nameZh : r.nameEn) || r.nameZh || r.nameEn;
  const groups = useCall(guideApi.groups);
  const [groupId, setGroupId] = useState<number | null>(null);
  const chosen = groupId ?? groups.data?.[0]?.id ?? 0;
  const items = useCall(guideApi.list, { params: { id: chosen } }, { enabled: chosen > 0 });
  const [group, setGroup] = useState<GuideGroupRow | 'new' | null>(null);
  const [item, setItem] = useState<GuideItemRow | 'new' | null>(null);
  const reload = () => void (groups.refetch(), items.refetch());
  const invalidates = [guideApi.book, guideApi.groups, guideApi.list];
  const delGroup = useAction(guideApi.groupDel, { success: t('admin.deleted'), invalidates, onDone: () => setGroupId(null) });
  const delItem = useAction(guideApi.del, { success: t('admin.deleted'), invalidates });
  const show = useAction(guideApi.status, { success: false, invalidates });
  const status = (v: number) => <Tag color={v === 1 ? 'green' : 'default'}>{v === 1 ? t('admin.shown') : t('admin.hidden')}</Tag>;
  const phone = usePhone();

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid="guide-admin">
      <Typography.Paragraph type="secondary">{t('admin.intro')}</Typography.Paragraph>
      <Card size="small" title={t('admin.groups')} extra={<AddButton perm="editParam" onClick={() => setGroup('new')}>{t('admin.addGroup')}</AddButton>}>
        <Rows<GuideGroupRow>
          size="small"
          rowKey="id"
          loading={groups.isLoading}
          dataSource={groups.data ?? []}
          pagination={false}
          scroll={{ x: 800 }}
          rowClassName={(r) => (r.id === chosen ? 'ant-table-row-selected' : '')}
          onRow={(r) => ({ onClick: () => setGroupId(r.id) })}
          columns={[
            { title: t('admin.code'), dataIndex: 'code', width: 160 },
            { title: t('admin.name'), key: 'name', render: (_, r) => nameOf(r) },
            { title: t('admin.items'), dataIndex: 'items', width: 90 },
            { title: t('admin.sort'), dataIndex: 'sort', width: 80 },
            { title: t('admin.status'), dataIndex: 'status', width: 90, render: status },
            linkActionsColumn<GuideGroupRow>(
              {
                title: t('admin.actions'),
                width: 150,
                items: [
                  // On a phone a card is not a row to click: its articles open from here.
                  ...(phone ? [{ key: 'items', perm: 'viewParam', label: t('admin.items'), onClick: (r: GuideGroupRow) => setGroupId(r.id) }] : []),
                  { key: 'edit', perm: 'editParam', label: t('admin.edit'), onClick: (r) => setGroup(r) },
                  {
                    key: 'delete',
                    perm: 'editParam',
                    label: t('admin.delete'),
                    danger: true,
                    disabled: (r) => r.items > 0,
                    hint: (r) => (r.items > 0 ? t('admin.groupInUse') : undefined),
                    confirm: (r) => ({ title: t('admin.confirmDelete', { name: nameOf(r) }), okText: t('admin.delete'), cancelText: t('admin.cancel'), danger: true }),
                    onClick: (r) => delGroup.run({ params: { id: r.id } }),
                  },
                ],
              },
              can,
            ),
          ]}
        />
      </Card>
      <Card
        size="small"
        title={t('admin.itemsOf', { name: nameOf(groups.data?.find((g) => g.id === chosen) ?? { nameZh: '', nameEn: '' }) })}
        extra={
          <AddButton perm="editParam" onClick={() => setItem('new')}>
            {t('admin.addItem')}
          </AddButton>
        }
      >
        <Rows<GuideItemRow>
          size="small"
          rowKey="id"
          loading={items.isLoading}
          dataSource={items.data ?? []}
          pagination={false}
          scroll={{ x: 900 }}
          columns={[
            { title: t('admin.code'), dataIndex: 'code', width: 160 },
            { title: t('admin.name'), key: 'name', render: (_, r) => nameOf(r) },
            { title: t('admin.path'), dataIndex: 'path', width: 180, render: (v: string) => v || '--' },
            { title: t('admin.sort'), dataIndex: 'sort', width: 80 },
            {
              title: t('admin.shown'),
              dataIndex: 'status',
              width: 90,
              render: (v: number, r) => <Switch size="small" checked={v === 1} disabled={!can('editParam')} loading={show.busy} onChange={(on) => show.run({ query: { ids: String(r.id), status: on ? '1' : '0' } })} />,
            },
            linkActionsColumn<GuideItemRow>(
              {
                title: t('admin.actions'),
                width: 150,
                items: [
                  { key: 'edit', perm: 'editParam', label: t('admin.edit'), onClick: (r) => setItem(r) },
                  {
                    key: 'delete',
                    perm: 'editParam',
                    label: t('admin.delete'),
                    danger: true,
                    confirm: (r) => ({ title: t('admin.confirmDelete', { name: nameOf(r) }), okText: t('admin.delete'), cancelText: t('admin.cancel'), danger: true }),
                    onClick: (r) => delItem.run({ params: { id: r.id } }),
                  },
                ],
              },
              can,
            ),
          ]}
        />
      </Card>
      <Button type="link" onClick={reload} style={{ paddingLeft: 0 }}>
        {t('admin.reload')}
      </Button>
      <GuideGroupDialog target={group} onClose={() => setGroup(null)} onDone={reload} />
      <GuideItemDialog target={item} groups={groups.data ?? []} groupId={chosen || undefined} onClose={() => setItem(null)} onDone={reload} />
    </Space>
  );
}

/** A table, or on a phone the same columns as cards (every row on one page: the lists are short). */
function Rows<R extends object>(props: TableProps<R>) {
  const phone = usePhone();
  const rows = props.dataSource ?? [];
  if (phone) return <PhoneRows table={props as unknown as PhoneTable} rows={rows} loading={!!props.loading} pagination={{ hideOnSinglePage: true, pageSize: Math.max(1, rows.length), total: rows.length }} />;
  return <Table<R> {...props} />;
}
