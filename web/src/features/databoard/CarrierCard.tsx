import { memo } from 'react';
import { WarningFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { BOARD_STATE_COLORS, climateOf, isDataCategory } from '@coldwatch/contract';
import { carrierIcon } from './carrierIcons';
import { carrierState, isOffline, type MonitorCarrier, type MonitorSensor } from './monitorState';
import { fmtValue, fmtZone, formatInZone, rangeState, RANGE_COLORS, type RangeState } from '../../lib/format';

/** The device states a sensor row shows beside its run status (offline is that status itself). */
const DEVICE_STATES = ['gateway_blackout', 'low_battery'] as const;
const DEVICE_STATE_COLORS: Record<(typeof DEVICE_STATES)[number], Tone> = { gateway_blackout: 'volcano', low_battery: 'gold' };

/**
 * The card's tags are spans drawn by monitor.css in Ant Design's tag colours, and the card a div
 * in its small card's look: a first screen holds some fifty cards and a hundred tags, and each
 * Ant Design Card or Tag runs its style hooks on mount, in the one render task that puts the
 * first cards on screen (docs/performance.md "Device monitor").
 */
type Tone = 'success' | 'default' | 'volcano' | 'gold' | 'error' | 'warning' | 'plain';
const Tag = ({ tone, children, ...rest }: { tone: Tone; children: React.ReactNode } & React.HTMLAttributes<HTMLSpanElement> & { [data: `data-${string}`]: unknown }) => (
  <span className={`cw-mon-tag tone-${tone}`} {...rest}>
    {children}
  </span>
);

interface Props {
  carrier: MonitorCarrier;
  timeZone?: string | null;
  onSensor: (s: MonitorSensor) => void;
}

/*
 * The board's hints are the browser's own (title), not Ant Design's Tooltip or Typography's
 * measured ellipsis: a first screen mounts some forty cards with three hints each, and each
 * Tooltip instance runs its trigger's and its style's hooks (docs/performance.md, "Device monitor").
 */
function Value({ value, state, unit, offline, label }: { value: number | null; state: RangeState; unit: string; offline: boolean; label: string }) {
  const color = offline ? '#bfbfbf' : RANGE_COLORS[state];
  return (
    <span className="cw-mon-value" style={{ color }} data-range={offline ? 'offline' : state} title={label}>
      {fmtValue(value)}
      <small>{unit}</small>
    </span>
  );
}

function SensorRow({ carrier, sensor, timeZone, onSensor }: { carrier: MonitorCarrier; sensor: MonitorSensor; timeZone?: string | null; onSensor: (s: MonitorSensor) => void }) {
  const { t } = useTranslation('monitor');
  const offline = isOffline(sensor);
  const tState = rangeState(sensor.temp, carrier.tempMin, carrier.tempMax);
  const hState = rangeState(sensor.hum, carrier.humMin, carrier.humMax);
  const showHum = sensor.hum !== null || /_th/.test(sensor.type);
  // A temperature or humidity exception is the warning sign; the device's own (power failure,
  // low battery) are tags of their own: they say nothing of the value (docs/devices.md).
  const ongoing = !!sensor.ongoing?.some(isDataCategory);
  const deviceStates = DEVICE_STATES.filter((c) => sensor.ongoing?.includes(c));
  return (
    <button
      type="button"
      className={`cw-mon-sensor${offline ? ' is-offline' : ''}`}
      onClick={() => onSensor(sensor)}
      title={t('openHistory', { devNo: sensor.devNo })}
    >
      <div className="cw-mon-sensor-head">
        <span className="cw-mon-devno">{sensor.devNo}</span>
        {ongoing && <WarningFilled style={{ color: '#fa541c' }} title={t('ongoing')} aria-label={t('ongoing')} />}
        {deviceStates.map((c) => (
          <Tag key={c} tone={DEVICE_STATE_COLORS[c]} data-device-state={c} title={t(`deviceState.${c}.hint`)}>
            {t(`deviceState.${c}.label`)}
          </Tag>
        ))}
        <Tag tone={offline ? 'default' : 'success'} style={{ marginInlineStart: 'auto' }}>
          {t(`sensorStatus.${sensor.status}`, { defaultValue: String(sensor.status) })}
        </Tag>
      </div>
      <div className="cw-mon-values">
        <div>
          <Value value={sensor.temp} state={tState} unit="°C" offline={offline} label={`${t('temp')} · ${t(`range.${tState}`)}`} />
          <div className="cw-mon-zone">{fmtZone(carrier.tempMin, carrier.tempMax) || '\u00a0'}</div>
        </div>
        {showHum && (
          <div>
            <Value value={sensor.hum} state={hState} unit="%RH" offline={offline} label={`${t('hum')} · ${t(`range.${hState}`)}`} />
            <div className="cw-mon-zone">{fmtZone(carrier.humMin, carrier.humMax) || '\u00a0'}</div>
          </div>
        )}
      </div>
      <div className="cw-mon-time">{sensor.lastTs ? formatInZone(sensor.lastTs, timeZone, 'MM-DD HH:mm:ss') : t('noReading')}</div>
    </button>
  );
}

/** With several sensors, the carrier's one value by its sample mode (spec §3): what its state and alarms follow. */
function CarrierValue({ carrier }: { carrier: MonitorCarrier }) {
  const { t } = useTranslation('monitor');
  const c = climateOf(carrier);
  return (
    <div className="cw-mon-carrier-value" data-testid="carrier-value">
      <span>{t('carrierValue', { mode: t(`points.sample.${carrier.sampleMode}`) })}</span>
      <b style={{ color: RANGE_COLORS[c.tempState] }}>{fmtValue(c.temp)}°C</b>
      {c.hum !== null && <b style={{ color: RANGE_COLORS[c.humState] }}>{fmtValue(c.hum)}%RH</b>}
    </div>
  );
}

export const CarrierCard = memo(function CarrierCard({ carrier, timeZone, onSensor }: Props) {
  const { t } = useTranslation('monitor');
  const state = carrierState(carrier);
  return (
    <div className={`cw-mon-card is-${state}`} style={{ borderTopColor: BOARD_STATE_COLORS[state] }}>
      <div className="cw-mon-card-head">
        <span className="cw-mon-title">
          <span className="cw-mon-icon">{carrierIcon(carrier.type)}</span>
          <span className="cw-mon-name" title={carrier.name}>
            {carrier.name}
          </span>
        </span>
        <span className="cw-mon-extra">
          {carrier.openExceptions > 0 && (
            <Tag tone="error" title={t('openExceptions', { count: carrier.openExceptions })}>
              <WarningFilled /> {carrier.openExceptions}
            </Tag>
          )}
          {carrier.reachesNobody && (
            // An alarm that would reach nobody is a defect to fix before the night it matters (docs/alarms.md).
            <Tag tone="warning" title={t('reachesNobodyHint')} data-reaches-nobody>
              {t('reachesNobody')}
            </Tag>
          )}
          {t(`carrierType.${carrier.type}`, { defaultValue: '' })}
          {carrier.status !== 1 && <Tag tone="plain">{t(`carrierStatus.${carrier.status}`, { defaultValue: String(carrier.status) })}</Tag>}
        </span>
      </div>
      <div className="cw-mon-card-body">
        {carrier.sensors.length > 1 && <CarrierValue carrier={carrier} />}
        {carrier.sensors.length === 0 ? (
          <div className="cw-mon-nosensor">{t('noSensors')}</div>
        ) : (
          <div className="cw-mon-sensors">
            {carrier.sensors.map((s) => (
              <SensorRow key={s.id} carrier={carrier} sensor={s} timeZone={timeZone} onSensor={onSensor} />
            ))}
          </div>
        )}
      </div>
    </div>
  );
});
