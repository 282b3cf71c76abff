import { Button, Popover, Tag, Typography } from 'antd';
import { ReloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { syslogApi, type SysLogRow } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { seesManyCustomers, useAuth } from '../../app/auth';
import { ListPage, useListRef, type ListColumn } from '../../ui';
import { logContent } from './logContent';
import { formatInZone } from '../../lib/format';
import './log.css';

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
  const list = useListRef();
  const modules = useCall(syslogApi.modules, undefined, { staleTime: 60_000 });
  const moduleName = (m: string) => t(`modules.${m}`, { defaultValue: m });

  // The search bar's order: module, operator, method, result, content, time.
  const columns: ListColumn<SysLogRow>[] = [
    { title: t('time'), dataIndex: 'time', width: 170, render: (v: number) => formatInZone(v, user?.timeZone), search: { type: 'datetimeRange', range: ['startTime', 'endTime'], order: 2 } },
    { title: t('customer'), dataIndex: 'customerName', width: 160, ellipsis: true, hidden: !seesManyCustomers(userType) },
    { title: t('module'), dataIndex: 'module', width: 120, render: (m: string) => moduleName(m), search: { type: 'select', options: (modules.data ?? []).map((m) => ({ value: m, label: moduleName(m) })) } },
    { title: t('operator'), dataIndex: 'operator', width: 120, render: (v: string | null) => v || '—', search: { type: 'input' } },
    { title: t('ip'), dataIndex: 'ip', width: 140, render: (v: string | null) => v || '—' },
    { title: t('method'), dataIndex: 'method', width: 140, render: (v: string) => <Typography.Text code>{v}</Typography.Text>, search: { type: 'input' } },
    { title: t('content'), dataIndex: 'content', ellipsis: true, render: (_: string, r) => logContent(t, r), search: { type: 'input', order: 1 } },
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
      search: {
        type: 'select',
        options: [
          { value: 1, label: t('success') },
          { value: 0, label: t('failure') },
        ],
      },
    },
  ];

  return (
    <ListPage
      ref={list.ref}
      route={syslogApi.page}
      columns={columns}
      size="middle"
      toolbar={<Button icon={<ReloadOutlined />} onClick={list.reload} aria-label={t('reload')} />}
      scrollX={1140}
    />
  );
}
