/** The points table's columns: time, temperature, humidity (when measured), battery and signal (a sensor's only). */
import { Tag, Tooltip } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { ExcludedPeriod } from '@coldwatch/contract';
import type { TFunction } from 'i18next';
import { fmtValue, formatInZone } from '../../lib/format';
import type { HistoryPoint, Zone } from './historyLogic';
import { valueColor } from './StatBlock';

/** The excluded period a reading falls in (half-open), if any. */
export const excludedAt = (excluded: readonly ExcludedPeriod[], ts: number) => excluded.find((e) => ts >= e.start && ts < e.end);

export function historyColumns(
  t: TFunction,
  { timeZone, zone, withHum, carrierView, excluded = [] }: { timeZone: string | null; zone: Zone; withHum: boolean; carrierView: boolean; excluded?: readonly ExcludedPeriod[] },
): ColumnsType<HistoryPoint> {
  return [
    {
      title: t('col.time'),
      dataIndex: 'ts',
      width: 250,
      render: (ts: number) => {
        const ex = excludedAt(excluded, ts);
        return (
          <span>
            {formatInZone(ts, timeZone)}
            {ex && (
              <Tooltip title={t('excludedTip', { name: ex.name })}>
                <Tag style={{ marginInlineStart: 8 }}>{t('excludedTag')}</Tag>
              </Tooltip>
            )}
          </span>
        );
      },
    },
    {
      title: t('col.temp'),
      dataIndex: 'temp',
      render: (v: number | null) => <span style={{ color: valueColor(v, zone.tempMin, zone.tempMax) }}>{fmtValue(v, 2)}</span>,
    },
    ...(withHum
      ? [
          {
            title: t('col.hum'),
            dataIndex: 'hum',
            render: (v: number | null) => <span style={{ color: valueColor(v, zone.humMin, zone.humMax) }}>{fmtValue(v, 2)}</span>,
          },
        ]
      : []),
    // A carrier's value has no battery or signal of its own.
    ...(carrierView
      ? []
      : [
          { title: t('col.volt'), dataIndex: 'volt', render: (v: number | null) => fmtValue(v, 2) },
          { title: t('col.rssi'), dataIndex: 'rssi', render: (v: number | null) => fmtValue(v, 0) },
        ]),
  ];
}
