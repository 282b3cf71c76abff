/** The columns of the detail page's tables: bound sensors and gateways, open exceptions, alarm-switch log, operations. */
import { Badge, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import type { TFunction } from 'i18next';
import type { alarmLogApi, carrierApi, exceptionApi, Result, SysLogRow } from '@coldwatch/contract';
import type { RowOf } from '../../ui';
import { fmtValue, formatInZone } from '../../lib/format';
import { logContent } from '../log/logContent';

type Atom = Result<typeof carrierApi.atom>;
type Zone = string | null;

const onlineBadge = (t: TFunction) => (v: number) => <Badge status={v === 1 ? 'success' : 'default'} text={t(`deviceStatus.${v}`)} />;

/** Bound sensors; the number opens its history. */
export const sensorColumns = (t: TFunction, tz: Zone, openHistory: (devNo: string) => void): ColumnsType<Atom['sensors'][number]> => [
  { title: t('col.devNo'), dataIndex: 'devNo', render: (v: string) => <Typography.Link onClick={() => openHistory(v)}>{v}</Typography.Link> },
  { title: t('col.sensorType'), dataIndex: 'type', render: (v: string) => t(`sensorType.${v}`, { defaultValue: v }) },
  { title: t('col.deviceStatus'), dataIndex: 'status', render: onlineBadge(t) },
  { title: t('detail.temp'), dataIndex: 'temp', render: (v: number | null) => fmtValue(v) },
  { title: t('detail.hum'), dataIndex: 'hum', render: (v: number | null) => fmtValue(v) },
  { title: t('col.gateway'), dataIndex: 'gatewaySn' },
  { title: t('col.lastTs'), dataIndex: 'lastTs', render: (v: number | null) => formatInZone(v, tz) },
];

/** The gateways its sensors report through. */
export const gatewayColumns = (t: TFunction, tz: Zone): ColumnsType<Atom['gateways'][number]> => [
  { title: t('col.gateway'), dataIndex: 'sn' },
  { title: t('col.gatewayName'), dataIndex: 'name' },
  { title: t('col.deviceStatus'), dataIndex: 'status', render: onlineBadge(t) },
  { title: t('col.power'), dataIndex: 'power', render: (v: string | null) => (v ? t(`power.${v}`, { defaultValue: v }) : '--') },
  { title: t('col.lastSeen'), dataIndex: 'lastSeenAt', render: (v: number | null) => formatInZone(v, tz) },
];

/** Its ongoing exceptions. */
export const exceptionColumns = (t: TFunction, tz: Zone): ColumnsType<RowOf<typeof exceptionApi.page>> => [
  { title: t('col.devNo'), dataIndex: 'devNo' },
  { title: t('detail.category'), dataIndex: 'category', render: (v: string) => t(`abnormal:category.${v}`, { defaultValue: v }) },
  { title: t('detail.start'), dataIndex: 'startTs', render: (v: number) => formatInZone(v, tz) },
  { title: t('detail.peak'), dataIndex: 'peakValue', render: (v: number | null) => fmtValue(v) },
];

/** Its alarm switch's log. */
export const alarmLogColumns = (t: TFunction, tz: Zone): ColumnsType<RowOf<typeof alarmLogApi.page>> => [
  { title: t('log.time'), dataIndex: 'time', render: (v: number) => formatInZone(v, tz) },
  { title: t('log.switch'), dataIndex: 'alarmOn', render: (v: boolean) => (v ? <Tag color="green">{t('alarm.on')}</Tag> : <Tag color="red">{t('alarm.off')}</Tag>) },
  { title: t('log.operator'), dataIndex: 'operator' },
];

/** The system log's records of it. */
export const operationColumns = (t: TFunction, tz: Zone): ColumnsType<SysLogRow> => [
  { title: t('log.time'), dataIndex: 'time', width: 170, render: (v: number) => formatInZone(v, tz) },
  { title: t('log.operator'), dataIndex: 'operator', width: 140 },
  { title: t('log.content'), key: 'content', render: (_: unknown, r: SysLogRow) => logContent(t, r) },
];
