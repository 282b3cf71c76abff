import { Badge, Tag, Tooltip } from 'antd';
import type { DeviceUsage } from '@coldwatch/contract';
import { useTranslation } from 'react-i18next';
import { formatInZone } from '../../lib/format';

/** A device's run status (spec §4: offline, online, stopped) with when it was last heard of. */
export function DeviceStatus({ status, lastSeen, tz }: { status: number; lastSeen: number | null; tz: string | null }) {
  const { t } = useTranslation('device');
  const badge = <Badge status={status === 1 ? 'success' : status === 2 ? 'warning' : 'default'} text={t(`status.${status}`, { defaultValue: String(status) })} data-status={status} />;
  return lastSeen ? <Tooltip title={t('lastSeen', { time: formatInZone(lastSeen, tz) })}>{badge}</Tooltip> : badge;
}

const USAGE_COLORS: Record<DeviceUsage, string> = { bound: 'blue', unbound: 'gold', unused: 'default' };

/** Equipment use (spec §3): in use and bound, in use but unbound, unused. */
export function UsageTag({ usage }: { usage: DeviceUsage }) {
  const { t } = useTranslation('device');
  return (
    <Tag color={USAGE_COLORS[usage]} data-usage={usage} style={{ marginInlineEnd: 0 }}>
      {t(`usage.${usage}`)}
    </Tag>
  );
}

/** A calibration expiry date: red once passed, orange within 30 days (the notice is due), plain otherwise. */
export function CalibrationTag({ expiry }: { expiry: string | null }) {
  const { t } = useTranslation('device');
  if (!expiry) return <>--</>;
  const days = Math.ceil((new Date(`${expiry}T23:59:59`).getTime() - Date.now()) / 86_400_000);
  const color = days < 0 ? 'red' : days <= 30 ? 'orange' : undefined;
  return (
    <Tooltip title={days < 0 ? t('calibration.expired') : t('calibration.inDays', { count: days })}>
      <Tag color={color} data-expiry={days < 0 ? 'expired' : days <= 30 ? 'soon' : 'ok'} style={{ marginInlineEnd: 0 }}>
        {expiry}
      </Tag>
    </Tooltip>
  );
}
