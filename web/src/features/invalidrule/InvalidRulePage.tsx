/**
 * /abnormal/invalidRule (spec §2, menu invalidRule, function object InvalidRule): the rules that
 * make chosen carriers' readings invalid for a time (docs/alarms.md "Invalid rules"): a list with
 * what each excludes and when, switched on and off in place, added and edited in a dialog,
 * deleted after asking. Every change applies from now on; the list says since when each is in force.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Popconfirm, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { INVALID_RULE_KINDS, invalidRuleApi, type InvalidRuleKind, type InvalidRuleRow } from '@coldwatch/contract';
import { idList } from '../../api/call';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { formatInZone } from '../../lib/format';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { useCustomerOptions } from '../account/shared';
import { reasonName } from '../abnormal/reasonName';
import { InvalidRuleDialog } from './InvalidRuleDialog';
import { whenText } from './ruleText';

const KIND_COLOR: Record<InvalidRuleKind, string> = { schedule: 'blue', period: 'purple', defrost: 'cyan' };

export default function InvalidRulePage() {
  const { t, i18n } = useTranslation('invalidRule');
  const { can, user } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [filters, setFilters] = useState<{ name?: string; kind?: InvalidRuleKind; enabled?: 'true' | 'false'; customerId?: number }>({});
  const [editing, setEditing] = useState<InvalidRuleRow | 'new' | null>(null);
  const params = useMemo(() => ({ ...filters }), [filters]);
  const customers = useCustomerOptions();
  const platform = can('viewCustomer');
  const reload = () => table.current?.reload();
  const del = useAction(invalidRuleApi.del, { success: t('msg.deleted'), onDone: reload });
  const status = useAction(invalidRuleApi.status, { success: false, onDone: reload });

  const columns: ColumnsType<InvalidRuleRow> = [
    ...(platform ? [{ title: t('col.customer'), dataIndex: 'customerName', width: 140, ellipsis: true }] : []),
    { title: t('col.name'), dataIndex: 'name', width: 180, ellipsis: true },
    { title: t('col.kind'), dataIndex: 'kind', width: 130, render: (k: InvalidRuleKind) => <Tag color={KIND_COLOR[k]}>{t(`kind.${k}`)}</Tag> },
    { title: t('col.when'), key: 'when', width: 260, render: (_, r) => whenText(t, r) },
    {
      title: t('col.carriers'),
      key: 'carriers',
      width: 220,
      render: (_, r) => (
        <Space size={[4, 4]} wrap>
          {r.carriers.map((c) => (
            <Tag key={c.id} style={{ marginInlineEnd: 0 }}>
              {c.name}
            </Tag>
          ))}
        </Space>
      ),
    },
    { title: t('col.reason'), key: 'reason', width: 150, ellipsis: true, render: (_, r) => (r.reasonZh !== null || r.reasonEn !== null ? reasonName({ nameZh: r.reasonZh ?? '', nameEn: r.reasonEn ?? '' }, i18n.language) : '--') },
    {
      title: t('col.enabled'),
      dataIndex: 'enabled',
      width: 90,
      render: (v: boolean, r) => {
        const on = can('editInvalidRule') ? <Switch size="small" checked={v} loading={status.busy} onChange={(enabled) => void status.run({ body: { ids: [r.id], enabled } })} aria-label={t('col.enabled')} /> : v ? t('yes') : t('no');
        return r.inForceSince ? <Tooltip title={t('inForce', { time: formatInZone(r.inForceSince, r.timeZone, 'YYYY-MM-DD HH:mm') })}>{on}</Tooltip> : on;
      },
    },
    { title: t('col.createdBy'), dataIndex: 'createdBy', width: 110, ellipsis: true },
    { title: t('col.updated'), key: 'updated', width: 170, render: (_, r) => <Typography.Text type="secondary">{`${formatInZone(r.updatedAt, r.timeZone, 'YYYY-MM-DD HH:mm')} ${r.updatedBy}`}</Typography.Text> },
    {
      title: t('col.actions'),
      key: 'actions',
      width: 130,
      fixed: 'right',
      render: (_, r) => (
        <Space size={0}>
          {can('editInvalidRule') && (
            <Button type="link" size="small" onClick={() => setEditing(r)}>
              {t('action.edit')}
            </Button>
          )}
          {can('removeInvalidRule') && (
            <Popconfirm title={t('confirm.delete', { name: r.name })} okText={t('form.ok')} cancelText={t('form.cancel')} okButtonProps={{ danger: true }} onConfirm={() => del.run({ query: { ids: idList([r.id]) } })}>
              <Button type="link" size="small" danger>
                {t('action.delete')}
              </Button>
            </Popconfirm>
          )}
        </Space>
      ),
    },
  ];
  const fields: SearchField[] = [
    { name: 'name', type: 'input', label: t('filter.name'), width: 180 },
    { name: 'kind', type: 'select', label: t('filter.kind'), width: 150, options: INVALID_RULE_KINDS.map((k) => ({ value: k, label: t(`kind.${k}`) })) },
    { name: 'enabled', type: 'select', label: t('filter.enabled'), width: 110, options: [{ value: 'true', label: t('yes') }, { value: 'false', label: t('no') }] },
    ...(platform ? [{ name: 'customerId', type: 'select' as const, label: t('col.customer'), width: 180, options: customers.data ?? [] }] : []),
  ];
  return (
    <PageCard title={t('title')}>
      <Typography.Paragraph type="secondary" style={{ marginTop: -4 }}>
        {t('intro')}
      </Typography.Paragraph>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar
            fields={fields}
            onSearch={(v) => setFilters({ name: v.name as string | undefined, kind: v.kind as InvalidRuleKind | undefined, enabled: v.enabled as 'true' | 'false' | undefined, customerId: v.customerId as number | undefined })}
          />
        </div>
        {can('newInvalidRule') && (
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
            {t('action.add')}
          </Button>
        )}
      </div>
      <PagedTable ref={table} route={invalidRuleApi.page} params={params} size="small" rowKey="id" columns={columns} locale={{ emptyText: t('empty') }} scroll={{ x: platform ? 1580 : 1440 }} />
      <InvalidRuleDialog target={editing} timeZone={user?.timeZone ?? null} customers={platform ? (customers.data ?? []) : undefined} onClose={() => setEditing(null)} onDone={reload} />
    </PageCard>
  );
}
