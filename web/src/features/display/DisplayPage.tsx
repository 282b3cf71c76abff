/** /device/displayscreen: the display screens of the caller's scope (spec §2, §3 Display): search, alarm settings, edit, stop or enable, delete. */
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayApi, type DisplayRow } from '@coldwatch/contract';
import { AddButton, ListPage, useListRef, type ListColumn } from '../../ui';
import { flatDeleteTexts, flatStatusTexts, useDeviceActions, useDeviceColumns } from '../device/deviceList';
import { DisplayDialog } from './DisplayDialog';

export default function DisplayPage() {
  const { t } = useTranslation('display');
  const navigate = useNavigate();
  const list = useListRef();
  const [editing, setEditing] = useState<DisplayRow | 'new' | null>(null);
  const col = useDeviceColumns();
  const act = useDeviceActions<DisplayRow>({ api: displayApi, reload: list.reload, cancel: t('cancel'), deleted: t('msg.deleted'), editPerm: 'editDisplay', removePerm: 'removeDisplay', statusTexts: flatStatusTexts(t), deleteTexts: flatDeleteTexts(t) });
  const detail = (r: DisplayRow) => navigate(`/DisplayDetail?id=${r.id}`);
  const seconds = (v: number) => `${v} s`;

  const columns: ListColumn<DisplayRow>[] = [
    col.status(t),
    col.number(t('col.devNo'), 'devNo', 120, detail),
    { title: t('col.name'), dataIndex: 'name', width: 150, ellipsis: true, render: (v: string, r) => (r.nickname ? `${v} (${r.nickname})` : v), search: { type: 'input', width: 140 } },
    col.carrier(t('col.carrier'), 150, t('unbound')),
    { title: t('col.alarmOn'), dataIndex: 'alarmOn', width: 90, render: (v: boolean) => <Tag color={v ? 'green' : 'default'}>{t(v ? 'on' : 'off')}</Tag> },
    { title: t('col.alarmDuration'), dataIndex: 'alarmDuration', width: 110, align: 'right', render: seconds },
    { title: t('col.alarmInterval'), dataIndex: 'alarmInterval', width: 110, align: 'right', render: seconds },
    { title: t('col.heartbeatInterval'), dataIndex: 'heartbeatInterval', width: 110, align: 'right', render: seconds },
    col.gateway(t('col.gateway')),
    col.customer(t('col.customer')),
  ];
  return (
    <ListPage
      ref={list.ref}
      title={t('title')}
      route={displayApi.page}
      columns={columns}
      actions={{
        title: t('col.actions'),
        width: 110,
        primary: { label: t('detail'), onClick: detail },
        items: [{ key: 'edit', perm: 'editDisplay', label: t('edit'), onClick: setEditing }, act.status, act.remove],
      }}
      toolbar={
        <AddButton perm="newDisplay" onClick={() => setEditing('new')}>
          {t('add')}
        </AddButton>
      }
      empty={t('empty')}
      scrollX={1400}
    >
      <DisplayDialog target={editing} onClose={() => setEditing(null)} onDone={list.reload} />
    </ListPage>
  );
}
