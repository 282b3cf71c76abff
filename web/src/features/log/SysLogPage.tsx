import { useMemo, useRef, useState } from 'react';
import { Button, Popover, Tag, Typography, type TableColumnsType } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { syslogApi, type SysLogRow } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type FiltersOf, type PagedTableRef, type SearchField } from '../../ui';
import { logContent } from './logContent';
import { formatInZone } from '../../lib/format';
import './log.css';

type Filters = FiltersOf<typeof syslogApi.page>;

/** Parameters as readable JSON (stored as JSON or as text). */
export function formatParams(p: unknown): string {
  if (p === null || p === undefined || p === '') return '';
  if (typeof p === 'string') {
    try {
      return JSON.stringify(JSON.parse(p), null, 2);
    } catch {
      return p;
    }
  }
  return JSON.stringify(p, null, 2);
}

/** /noti/sysLog (spec §3 system log): every mutation's time, module, operator, method, content, parameters and result. */
export default function SysLogPage() {
  const { t } = useTranslation('syslog');
  const { user, userType } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<Filters>({});
  const modules = useCall(syslogApi.modules, undefined, { staleTime: 60_000 });
  const manyCustomers = seesManyCustomers(userType);
  const moduleName = (m: string) => t(`modules.${m}`, { defaultValue: m });

  const fields: SearchField[] = [
    { name: 'module', type: 'select', label: t('module'), options: (modules.data ?? []).map((m) => ({ value: m, label: moduleName(m) })) },
    { name: 'operator', type: 'input', label: t('operator') },
    { name: 'method', type: 'input', label: t('method') },
    {
      name: 'result',
      type: 'select',
      label: t('result'),
      options: [
        { value: 1, label: t('success') },
        { value: 0, label: t('failure') },
      ],
    },
    { name: 'content', type: 'input', label: t('content') },
    { name: 'range', type: 'datetimeRange', label: t('time') },
  ];

  const columns = useMemo<TableColumnsType<SysLogRow>>(
    () => [
      { title: t('time'), dataIndex: 'time', width: 170, render: (v: number) => formatInZone(v, user?.timeZone) },
      ...(manyCustomers ? [{ title: t('customer'), dataIndex: 'customerName', width: 160, ellipsis: true }] : []),
      { title: t('module'), dataIndex: 'module', width: 120, render: (m: string) => moduleName(m) },
      { title: t('operator'), dataIndex: 'operator', width: 120, render: (v: string | null) => v || '—' },
      { title: t('ip'), dataIndex: 'ip', width: 140, render: (v: string | null) => v || '—' },
      { title: t('method'), dataIndex: 'method', width: 140, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
      { title: t('content'), dataIndex: 'content', ellipsis: true, render: (_: string, r: SysLogRow) => logContent(t, r) },
      {
        title: t('params'),
        dataIndex: 'params',
        width: 110,
        render: (p: unknown) => {
          const text = formatParams(p);
          if (!text || text === '{}') return '—';
          return (
            <Popover title={t('params')} trigger="click" content={<pre className="cw-log-params">{text}</pre>}>
              <Button type="link" size="small">
                {t('view')}
              </Button>
            </Popover>
          );
        },
      },
      {
        title: t('result'),
        dataIndex: 'result',
        width: 90,
        render: (r: number) => (r === 1 ? <Tag color="success">{t('success')}</Tag> : <Tag color="error">{t('failure')}</Tag>),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, user?.timeZone, manyCustomers],
  );

  return (
    <PageCard>
      <SearchBar
        fields={fields}
        onSearch={(v) => {
          const r = v.range as [number, number] | undefined;
          setFilters({
            module: v.module as string | undefined,
            operator: v.operator as string | undefined,
            method: v.method as string | undefined,
            result: v.result as number | undefined,
            content: v.content as string | undefined,
            startTime: r?.[0],
            endTime: r?.[1],
          });
        }}
        extra={<Button icon={<ReloadOutlined />} onClick={() => table.current?.reload()} aria-label={t('reload')} />}
      />
      <PagedTable
        ref={table}
        route={syslogApi.page}
        params={filters}
        size="middle"
        rowKey="id"
        columns={columns}
        scroll={{ x: 1140 }}
      />
    </PageCard>
  );
}
