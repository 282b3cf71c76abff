/**
 * /sysAlarm (spec §2 hidden route, §3 Alarm trigger): the alarm triggers, who each tells, how,
 * when and how often, and the carriers it serves. Reached from the carrier dialog and the log
 * section. A trigger bound to a carrier cannot be deleted (the server says so, spec §8).
 */
import { useMemo, useRef, useState } from 'react';
import { Alert, Button, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { alarmTriggerApi, type AlarmTriggerRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef, type SearchField } from '../../ui';
import { TriggerDialog } from './TriggerDialog';

export default function AlarmTriggerPage() {
  const { t } = useTranslation('alarmTrigger');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ name?: string }>({});
  const [editing, setEditing] = useState<AlarmTriggerRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const reload = () => table.current?.reload();
  const del = useAction(alarmTriggerApi.del, { success: t('msg.deleted'), onDone: reload });
  const hours = (r: AlarmTriggerRow) =>
    `${r.weekdays.length === 7 ? t('everyDay') : r.weekdays.map((d) => t(`weekdayShort.${d}`)).join(' ')} · ${r.windows.length ? r.windows.map((w) => `${w.start}-${w.end}`).join(', ') : t('allDay')}`;
  const columns: ListColumn<AlarmTriggerRow>[] = [
    { title: t('col.customer'), dataIndex: 'customerName', width: 150, hidden: !seesManyCustomers(user?.userType) },
    { title: t('col.name'), dataIndex: 'name', width: 140 },
    // The carriers it serves come second: at 1440 px every column fits beside the fixed actions, and at a glance this is what matters.
    { title: t('col.carriers'), key: 'carriers', width: 170, render: (_, r) => r.carrierNames.join(', ') || '--' },
    { title: t('col.channels'), key: 'channels', width: 120, render: (_, r) => r.channels.map((c) => <Tag key={c}>{t(`channel.${c}`)}</Tag>) },
    {
      title: t('col.recipients'),
      key: 'recipients',
      width: 170,
      render: (_, r) => [...r.contactNames, ...r.groupNames.map((g) => t('group', { g })), ...r.levels.map((l) => t('level', { n: l }))].join(', ') || t('carrierContactsOnly'),
    },
    { title: t('col.hours'), key: 'hours', width: 150, render: (_, r) => hours(r) + (r.offChannels.length ? ` (${t('offHours')}: ${r.offChannels.map((c) => t(`channel.${c}`)).join(', ')})` : '') },
    {
      title: t('col.repeat'),
      key: 'repeat',
      width: 130,
      render: (_, r) => [r.repeatTimes ? t('repeatText', { n: r.repeatTimes, m: r.repeatIntervalMin }) : t('noRepeat'), r.escalateAfterMin ? t('escalateText', { m: r.escalateAfterMin }) : ''].filter(Boolean).join(' · '),
    },
    { title: t('col.delay'), key: 'delay', width: 160, render: (_, r) => `${r.delayS} s · ${r.tempMargin} °C · ${r.humMargin} %RH` },
    linkActionsColumn<AlarmTriggerRow>(
      {
        title: t('col.actions'),
        width: 110,
        items: [
          { key: 'edit', perm: 'editAlarmTrigger', label: t('action.edit'), onClick: setEditing },
          {
            key: 'del',
            perm: 'removeAlarmTrigger',
            label: t('action.delete'),
            danger: true,
            confirm: (r) => ({ title: t('confirm.delete', { name: r.name }), okText: t('form.ok'), cancelText: t('form.cancel'), danger: true }),
            onClick: (r) => del.run({ query: { ids: idList([r.id]) } }),
          },
        ],
      },
      can,
    ),
  ];
  const fields: SearchField[] = [{ name: 'name', type: 'input', label: t('col.name'), width: 200 }];
  return (
    <PageCard title={t('title')} extra={can('newAlarmTrigger') ? <Button type="primary" onClick={() => setEditing('new')}>{t('action.add')}</Button> : undefined}>
      <Alert type="info" showIcon title={t('intro')} style={{ marginBottom: 12 }} />
      <SearchBar fields={fields} onSearch={(v) => setFilters({ name: (v.name as string | undefined) || undefined })} />
      <PagedTable ref={table} route={alarmTriggerApi.page} params={params} size="small" rowKey="id" columns={tableColumns(columns)} locale={{ emptyText: t('empty') }} scroll={{ x: seesManyCustomers(user?.userType) ? 1300 : 1150 }} />
      <TriggerDialog target={editing} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
