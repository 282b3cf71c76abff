/** /device/base: the smart bases of the caller's scope (spec §2, §3 base types); a base's detail opens in its own window (spec §2 /BaseDetail). */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { BASE_TYPES, baseApi, type BaseRow } from '@coldwatch/contract';
import { AddButton, ListPage, useListRef, type ListColumn } from '../../ui';
import { flatDeleteTexts, flatStatusTexts, useDeviceActions, useDeviceColumns } from '../device/deviceList';
import { typeName } from '../type/typeLabels';
import { BaseDialog } from './BaseDialog';

/** Spec §2: the base detail opens in its own window. */
export const openBase = (id: number) => window.open(`/BaseDetail?id=${id}`, `base-${id}`, 'width=1100,height=760');

export default function BasePage() {
  const { t } = useTranslation('base');
  const list = useListRef();
  const [editing, setEditing] = useState<BaseRow | 'new' | null>(null);
  const col = useDeviceColumns();
  const act = useDeviceActions<BaseRow>({ api: baseApi, reload: list.reload, cancel: t('cancel'), deleted: t('msg.deleted'), editPerm: 'editPlinth', removePerm: 'removePlinth', statusTexts: flatStatusTexts(t), deleteTexts: flatDeleteTexts(t) });

  const columns: ListColumn<BaseRow>[] = [
    col.status(t),
    col.number(t('col.devNo'), 'devNo', 120, (r) => openBase(r.id)),
    { title: t('col.name'), dataIndex: 'name', width: 160, ellipsis: true, search: { type: 'input', width: 140 } },
    { title: t('col.type'), dataIndex: 'type', width: 200, render: (v: string) => typeName(t, 'base', v), search: { type: 'select', width: 200, options: BASE_TYPES.map((x) => ({ value: x, label: typeName(t, 'base', x) })) } },
    col.carrier(t('col.carrier'), 150, t('unbound')),
    col.gateway(t('col.gateway')),
    { title: t('col.description'), dataIndex: 'description', ellipsis: true, render: (v: string) => v || '--' },
    col.customer(t('col.customer')),
  ];
  return (
    <ListPage
      ref={list.ref}
      title={t('title')}
      route={baseApi.page}
      columns={columns}
      actions={{
        title: t('col.actions'),
        width: 110,
        primary: { label: t('detail'), onClick: (r) => openBase(r.id) },
        items: [{ key: 'edit', perm: 'editPlinth', label: t('edit'), onClick: setEditing }, act.status, act.remove],
      }}
      toolbar={
        <AddButton perm="newPlinth" onClick={() => setEditing('new')}>
          {t('add')}
        </AddButton>
      }
      empty={t('empty')}
      scrollX={1300}
    >
      <BaseDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}
