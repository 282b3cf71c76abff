/**
 * /OperateRecord: the configuration log (spec §3 Config log: scene, device code and type, order
 * type, content, time, state, operator). Newest first, filtered by device and state; a command
 * still configuring cannot be deleted (§4). GET /service/sensor/configLog.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Popconfirm, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useTranslation } from 'react-i18next';
import { CONFIG_STATES, configApi, type ConfigLogRow, type ConfigState } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';

const STATE_COLORS: Record<ConfigState, string> = { prepare: 'default', issuing: 'processing', end: 'success', fail: 'error' };
const OPEN: ConfigState[] = ['prepare', 'issuing'];

export default function ConfigLogPage() {
  const { t } = useTranslation('device');
  const [filters, setFilters] = useState<{ devNo?: string; status?: ConfigState }>({});
  const fields: SearchField[] = [
    { name: 'devNo', type: 'input', label: t('sensor.devNo'), width: 140 },
    { name: 'status', type: 'select', label: t('configLog.status'), width: 120, options: CONFIG_STATES.map((s) => ({ value: s, label: t(`configLog.state.${s}`) })) },
  ];
  return (
    <PageCard title={t('configLog.title')}>
      <SearchBar fields={fields} onSearch={(v) => setFilters({ devNo: v.devNo as string, status: v.status as ConfigState })} />
      <ConfigLogTable filters={filters} />
    </PageCard>
  );
}

/** The log's table: the page's (filtered) or one sensor's on its detail page (`sensorId`). */
export function ConfigLogTable({ filters }: { filters: { devNo?: string; sensorId?: number; status?: ConfigState } }) {
  const { t } = useTranslation('device');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const del = useAction(configApi.del, { onDone: () => table.current?.reload() });

  const columns: ColumnsType<ConfigLogRow> = [
    { title: t('configLog.time'), dataIndex: 'createdAt', width: 160, render: (v: number) => formatInZone(v, user?.timeZone, 'YYYY-MM-DD HH:mm:ss') },
    { title: t('configLog.scene'), dataIndex: 'sceneName', width: 130, render: (v: string | null) => v ?? '--' },
    { title: t('sensor.devNo'), dataIndex: 'devNo', width: 120, render: (v: string | null) => <code>{v ?? '--'}</code> },
    { title: t('sensor.type'), dataIndex: 'deviceType', width: 170, render: (v: string | null) => (v ? t(`carrier:sensorType.${v}`, { defaultValue: v }) : '--') },
    { title: t('configLog.orderType'), dataIndex: 'orderType', width: 110, render: (v: string) => t(`config.${v}`, { defaultValue: v }) },
    {
      title: t('configLog.content'),
      dataIndex: 'content',
      render: (v: Record<string, unknown>) => (
        <Typography.Text style={{ fontSize: 12 }}>
          {Object.entries(v)
            .map(([k, x]) => `${t(`config.${k}`, { defaultValue: k })} = ${String(x)}`)
            .join('; ')}
        </Typography.Text>
      ),
    },
    {
      title: t('configLog.status'),
      dataIndex: 'status',
      width: 110,
      render: (v: ConfigState, r) => (
        <Tooltip title={r.detail || undefined}>
          <Tag color={STATE_COLORS[v]}>{t(`configLog.state.${v}`)}</Tag>
        </Tooltip>
      ),
    },
    { title: t('configLog.operator'), dataIndex: 'operator', width: 110 },
    ...(seesManyCustomers(user?.userType) ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    ...(can('editSensor')
      ? [
          {
            title: t('col.actions'),
            key: 'actions',
            width: 90,
            fixed: 'right' as const,
            render: (_: unknown, r: ConfigLogRow) =>
              OPEN.includes(r.status) ? (
                <Tooltip title={t('configLog.busy')}>
                  <Button type="link" size="small" danger disabled>
                    {t('action.delete')}
                  </Button>
                </Tooltip>
              ) : (
                <Popconfirm title={t('configLog.confirmDelete')} okText={t('form.ok')} cancelText={t('form.cancel')} okButtonProps={{ danger: true }} onConfirm={() => del.run({ query: { ids: idList([r.id]) } })}>
                  <Button type="link" size="small" danger>
                    {t('action.delete')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]
      : []),
  ];
  return <PagedTable ref={table} route={configApi.log} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('configLog.empty') }} scroll={{ x: 1300 }} />;
}
