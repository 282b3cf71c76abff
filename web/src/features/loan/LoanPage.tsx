/**
 * /sys/deviceTransfer: lending (spec §2, §3 Secondment; docs/devices.md "Lending"). Current
 * loans with their time left and revoke, the history with how each ended; lend from here or
 * from a selection on the sensor page. The platform's page (spec §6 level 2, system scope).
 */
import { useMemo, useRef, useState } from 'react';
import { App, Button, Space, Tabs, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { PlusOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { loanApi, type LoanRow, type LoanState } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PageCard, PagedTable, SearchBar, type PagedTableRef, type SearchField } from '../../ui';
import { LendDialog } from './LendDialog';
import { loanColumns } from './loanColumns';

export default function LoanPage() {
  const { t } = useTranslation('loan');
  const { can, user } = useAuth();
  const { modal } = App.useApp();
  const table = useRef<PagedTableRef>(null);
  const [state, setState] = useState<LoanState>('current');
  const [devNo, setDevNo] = useState<string | undefined>();
  const [selected, setSelected] = useState<number[]>([]);
  const [lending, setLending] = useState(false);
  const params = useMemo(() => ({ state, devNo }), [state, devNo]);
  const reload = () => {
    setSelected([]);
    table.current?.reload();
  };
  const revoke = useAction(loanApi.revoke, { success: t('msg.revoked'), onDone: reload });
  const confirmRevoke = (ids: number[], what: string) =>
    modal.confirm({
      title: t('revokeTitle', { what }),
      content: t('revokeText'),
      okText: t('revoke'),
      okButtonProps: { danger: true },
      cancelText: t('cancel'),
      onOk: () => revoke.run({ body: { ids } }),
    });

  const columns: ColumnsType<LoanRow> = [
    ...loanColumns(t, user?.timeZone, state === 'history'),
    ...(state === 'current' && can('editBorrow')
        ? [
            {
              title: t('col.actions'),
              key: 'actions',
              width: 90,
              fixed: 'right' as const,
              render: (_: unknown, r: LoanRow) => (
                <Button size="small" danger onClick={() => confirmRevoke([r.id], r.devNo)}>
                  {t('revoke')}
                </Button>
              ),
            },
          ]
        : []),
  ];
  const fields: SearchField[] = [{ name: 'devNo', type: 'input', label: t('col.devNo'), width: 160 }];
  return (
    <PageCard title={t('title')}>
      <Tabs
        activeKey={state}
        onChange={(k) => {
          setSelected([]);
          setState(k as LoanState);
        }}
        items={[
          { key: 'current', label: t('tab.current') },
          { key: 'history', label: t('tab.history') },
        ]}
      />
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16, flexWrap: 'wrap' }}>
        <div style={{ flex: 1, minWidth: 240 }}>
          <SearchBar fields={fields} onSearch={(v) => setDevNo(v.devNo as string | undefined)} />
        </div>
        <Space>
          {state === 'current' && can('editBorrow') && (
            <Button danger disabled={!selected.length} onClick={() => confirmRevoke(selected, t('selected', { count: selected.length }))}>
              {t('revoke')}
              {selected.length ? ` (${selected.length})` : ''}
            </Button>
          )}
          {can('newBorrow') && (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setLending(true)}>
              {t('lend')}
            </Button>
          )}
        </Space>
      </div>
      <PagedTable
        ref={table}
        route={loanApi.page}
        params={params}
        size="small"
        rowKey="id"
        rowSelection={state === 'current' && can('editBorrow') ? { selectedRowKeys: selected, onChange: (keys) => setSelected(keys as number[]) } : undefined}
        columns={columns}
        locale={{ emptyText: t(state === 'current' ? 'emptyCurrent' : 'emptyHistory') }}
        scroll={{ x: state === 'history' ? 1650 : 1300 }}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('footnote')}
      </Typography.Paragraph>
      <LendDialog sensors={lending ? [] : null} onClose={() => setLending(false)} onDone={reload} />
    </PageCard>
  );
}
