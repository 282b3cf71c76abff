import { useRef, useState } from 'react';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { placeApi, type PlaceRow } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { AddButton, PagedTable, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef } from '../../ui';
import { useCustomerOptions } from '../account/shared';
import { PlaceDialog } from './PlaceDialog';

/**
 * The places of /transHistory (docs/transport.md "Places"): leaving one starts a trip of a vehicle
 * in transport mode, reaching another ends it. Listed with viewCar, changed with editCar.
 */
export function PlacesCard({ onChanged }: { onChanged?: () => void }) {
  const { t } = useTranslation('trip');
  const { can } = useAuth();
  const table = useRef<PagedTableRef>(null);
  const [editing, setEditing] = useState<PlaceRow | 'new' | null>(null);
  const customers = useCustomerOptions();
  const platform = can('viewCustomer');
  const reload = () => (table.current?.reload(), onChanged?.());
  const del = useAction(placeApi.del, { success: t('place.deleted'), onDone: reload });
  const columns: ListColumn<PlaceRow>[] = [
    ...(platform ? [{ title: t('place.customer'), dataIndex: 'customerName' as const, width: 160 }] : []),
    { title: t('place.name'), dataIndex: 'name', width: 180 },
    { title: t('place.lat'), dataIndex: 'lat', width: 120 },
    { title: t('place.lng'), dataIndex: 'lng', width: 120 },
    { title: t('place.radius'), dataIndex: 'radiusM', width: 110, render: (v: number) => `${v} m` },
    linkActionsColumn<PlaceRow>(
      {
        title: t('col.actions'),
        width: 150,
        items: [
          { key: 'edit', perm: 'editCar', label: t('place.edit'), onClick: (r) => setEditing(r) },
          {
            key: 'delete',
            perm: 'editCar',
            label: t('place.delete'),
            confirm: (r) => ({ title: t('place.confirmDelete', { name: r.name }), okText: t('place.delete'), cancelText: t('cancel') }),
            onClick: (r) => del.run({ query: { ids: String(r.id) } }),
          },
        ],
      },
      can,
    ),
  ];
  return (
    <Card
      size="small"
      title={t('place.title')}
      style={{ marginTop: 16 }}
      extra={
        <AddButton perm="editCar" onClick={() => setEditing('new')}>
          {t('place.add')}
        </AddButton>
      }
      data-testid="places"
    >
      <Typography.Paragraph type="secondary">{t('place.intro')}</Typography.Paragraph>
      <PagedTable ref={table} route={placeApi.page} size="small" rowKey="id" columns={tableColumns(columns)} locale={{ emptyText: t('place.empty') }} scroll={{ x: 800 }} />
      <PlaceDialog target={editing} customers={platform ? (customers.data ?? []) : undefined} onClose={() => setEditing(null)} onDone={reload} />
    </Card>
  );
}
