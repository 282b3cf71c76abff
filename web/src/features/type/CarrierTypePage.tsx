/**
 * /sys/carrierType: the carrier types (spec §3: 1 incubator … 7 other), how many of the caller's
 * carriers have each, and whether it is offered for new carriers (editType holders switch it,
 * with a note). GET /service/share/getCarrierType; PUT /service/carrierType/update.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { typeApi, type CarrierTypeRow } from '@coldwatch/contract';
import { call } from '../../api/call';
import { useCall } from '../../api/hooks';
import { PageCard } from '../../ui';
import { TypeTable } from './TypeTable';

export default function CarrierTypePage() {
  const { t } = useTranslation('type');
  const list = useCall(typeApi.carriers);
  const name = (r: CarrierTypeRow) => t(`carrier:type.${r.type}`);

  return (
    <PageCard title={t('carrierTitle')}>
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <TypeTable<CarrierTypeRow>
        rows={list.data ?? []}
        loading={list.isFetching}
        rowKey="type"
        columns={[
          { title: t('col.name'), key: 'name', width: 200, render: (_, r) => name(r) },
          { title: t('col.code'), key: 'code', width: 160, render: (_, r) => <code>{`${r.type} · ${r.key}`}</code> },
        ]}
        name={name}
        update={(r, v) => call(typeApi.updateCarrier, { body: { type: r.type, ...v } })}
        refetch={list.refetch}
        scrollX={800}
      />
    </PageCard>
  );
}
