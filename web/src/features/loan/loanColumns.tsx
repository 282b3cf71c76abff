/** The columns a loan shows wherever it is listed: the transfer page and the owner's "lent out" list. */
import { Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { LoanRow } from '@coldwatch/contract';
import { formatInZone } from '../../lib/format';

const DAY = 86_400_000;

/** Time left of a current loan: days, or hours on its last day; red when it is due. */
export function TimeLeft({ endsAt, t }: { endsAt: number; t: TFunction }) {
  const left = endsAt - Date.now();
  if (left <= 0) return <Tag color="red">{t('due')}</Tag>;
  if (left < DAY) return <Tag color="orange">{t('hoursLeft', { count: Math.ceil(left / 3_600_000) })}</Tag>;
  return <Tag color="blue">{t('daysLeft', { count: Math.floor(left / DAY) })}</Tag>;
}

/** How a loan ended: when, and revoked or run out. */
export function LoanEnd({ row, tz }: { row: LoanRow; tz?: string }) {
  const { t } = useTranslation('loan');
  return (
    <span>
      {row.endedAt ? formatInZone(row.endedAt, tz, 'YYYY-MM-DD HH:mm') : '--'} {row.endReason && <Tag color={row.endReason === 'revoked' ? 'orange' : 'default'}>{t(`end.${row.endReason}`)}</Tag>}
    </span>
  );
}

/** `ended`: the history's columns (when and how each ended, by whom) come after the period. */
export function loanColumns(t: TFunction, tz?: string, ended = false): ColumnsType<LoanRow> {
  const end: ColumnsType<LoanRow> = ended
    ? [
        { title: t('col.ended'), key: 'ended', width: 220, render: (_, r) => <LoanEnd row={r} tz={tz} /> },
        { title: t('col.endedBy'), dataIndex: 'endedBy', width: 130, render: (v: string | null) => v ?? t('system') },
      ]
    : [];
  return [
    { title: t('col.devNo'), dataIndex: 'devNo', width: 130, render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
    { title: t('col.type'), dataIndex: 'deviceType', width: 170, render: (v: string) => t(`carrier:sensorType.${v}`, { defaultValue: v }) },
    { title: t('col.owner'), dataIndex: 'customerName', width: 150, ellipsis: true },
    { title: t('col.borrower'), dataIndex: 'borrowerName', width: 150, ellipsis: true },
    { title: t('col.startsAt'), dataIndex: 'startsAt', width: 150, render: (v: number) => formatInZone(v, tz, 'YYYY-MM-DD HH:mm') },
    {
      title: t('col.endsAt'),
      dataIndex: 'endsAt',
      width: 230,
      render: (v: number, r) => (
        <span>
          {formatInZone(v, tz, 'YYYY-MM-DD HH:mm')} {r.endedAt === null && <TimeLeft endsAt={v} t={t} />}
        </span>
      ),
    },
    ...end,
    { title: t('col.note'), dataIndex: 'note', width: 200, ellipsis: true, render: (v: string) => v || '--' },
    { title: t('col.operator'), dataIndex: 'operator', width: 100 },
  ];
}
