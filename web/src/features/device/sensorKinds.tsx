/**
 * The three kinds of sensor row the device menu shows (spec §2 /device/sensor, /device/gas,
 * /device/magnetism): each its routes, function codes, detail page and the values it reports.
 */
import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { CLIMATE_SENSOR_TYPES, GAS_CODES, gasApi, magnetApi, sensorApi, type FuncObject, type SensorKind, type SensorRow } from '@coldwatch/contract';
import { fmtValue } from '../../lib/format';
import type { ListColumn } from '../../ui';
import { typeName } from '../type/typeLabels';

export interface SensorKindDef {
  kind: SensorKind;
  object: FuncObject;
  api: Pick<typeof gasApi, 'add' | 'update' | 'setStatus' | 'del' | 'importFile' | 'importTemplate'> & { page: typeof sensorApi.page };
  detail: string;
  /** Key prefix of its texts in the device catalogue (title, add/edit titles, empty list). */
  texts: 'sensor' | 'gas' | 'magnet';
}

export const SENSOR_KIND_DEFS: Record<SensorKind, SensorKindDef> = {
  sensor: { kind: 'sensor', object: 'Sensor', api: { ...sensorApi, importFile: sensorApi.importSensor }, detail: '/SensorDetail', texts: 'sensor' },
  gas: { kind: 'gas', object: 'Gas', api: gasApi as unknown as SensorKindDef['api'], detail: '/GasDetail', texts: 'gas' },
  magnet: { kind: 'magnet', object: 'Magnetism', api: magnetApi as unknown as SensorKindDef['api'], detail: '/SensorDetail', texts: 'magnet' },
};

const CONFIG_COLORS: Record<SensorRow['configStatus'], string> = { wait: 'default', configuring: 'processing', configured: 'success', fail: 'error' };

/** A door magnet's state: open (orange) or closed. */
export function DoorTag({ door, t }: { door: number | null; t: TFunction }) {
  if (door === null) return <>--</>;
  return <Tag color={door ? 'orange' : 'green'}>{t(door ? 'magnet.open' : 'magnet.closed')}</Tag>;
}

/** The columns of what a kind reports: temperature and humidity, a gas and its concentration, a door's state; the type and the gas are searched by. */
export function valueColumns(kind: SensorKind, t: TFunction): ListColumn<SensorRow>[] {
  if (kind === 'gas') {
    return [
      {
        title: t('gas.gasCode'),
        dataIndex: 'gasCode',
        width: 220,
        render: (v: string | null) => (v ? typeName(t, 'gas', v) : '--'),
        search: { type: 'select', width: 220, options: GAS_CODES.map((g) => ({ value: g, label: typeName(t, 'gas', g) })) },
      },
      { title: t('gas.value'), dataIndex: 'gas', width: 110, align: 'right', render: (v: number | null) => (v === null ? '--' : `${fmtValue(v)} ppm`) },
    ];
  }
  if (kind === 'magnet') return [{ title: t('magnet.door'), dataIndex: 'door', width: 110, render: (v: number | null) => <DoorTag door={v} t={t} /> }];
  return [
    { title: t('configStatus.title'), dataIndex: 'configStatus', width: 100, render: (v: SensorRow['configStatus']) => <Tag color={CONFIG_COLORS[v]}>{t(`configStatus.${v}`)}</Tag> },
    {
      title: t('sensor.type'),
      dataIndex: 'type',
      width: 190,
      render: (v: string) => t(`carrier:sensorType.${v}`, { defaultValue: v }),
      search: { type: 'select', width: 190, options: CLIMATE_SENSOR_TYPES.map((s) => ({ value: s, label: t(`carrier:sensorType.${s}`) })) },
    },
    { title: t('sensor.temp'), dataIndex: 'temp', width: 90, align: 'right', render: (v: number | null) => (v === null ? '--' : `${fmtValue(v)} °C`) },
    { title: t('sensor.hum'), dataIndex: 'hum', width: 100, align: 'right', render: (v: number | null) => (v === null ? '--' : `${fmtValue(v)} %RH`) },
  ];
}
