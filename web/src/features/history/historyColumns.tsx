/** The points table's columns: time, temperature, humidity (when measured), battery and signal (a sensor's only). */
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import { fmtValue, formatInZone } from '../../lib/format';
import type { HistoryPoint, Zone } from './historyLogic';
import { valueColor } from './StatBlock';

export function historyColumns(t: TFunction, { timeZone, zone, withHum, carrierView }: { timeZone: string | null; zone: Zone; withHum: boolean; carrierView: boolean }): ColumnsType<HistoryPoint> {
  return [
    { title: t('col.time'), dataIndex: 'ts', width: 190, render: (ts: number) => formatInZone(ts, timeZone) },
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
