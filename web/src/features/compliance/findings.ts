import type { TFunction } from 'i18next';
import type { ComplianceFinding } from '@coldwatch/contract';

/*
 * A finding of the GSP checks in words and the ways to fix it: kept apart from the page so the
 * wording and the choice of fix can be tested without a browser.
 */

/** Seconds as the rule speaks of them: whole minutes in minutes, anything else in seconds. */
export const duration = (t: TFunction, seconds: number) => (seconds >= 60 && seconds % 60 === 0 ? t('unit.min', { count: seconds / 60 }) : t('unit.s', { count: seconds }));

/** What is wrong (one sentence) and what it is made of (the notes under it). */
export function describe(t: TFunction, f: ComplianceFinding): { text: string; notes: string[] } {
  switch (f.rule) {
    case 'storage':
    case 'transport':
    case 'outOfRange': {
      const notes = [t(`source.${f.source ?? 'sensor'}`)];
      if (f.rule === 'outOfRange' && f.source !== 'exception') notes.push(t('source.noException'));
      return { text: t(`finding.${f.rule}`, { value: duration(t, f.value), limit: duration(t, f.limit) }), notes };
    }
    case 'sms': {
      const s = f.sms ?? { mobiles: 0, channel: false, customer: false, alarmOn: false };
      const notes = [t('why.mobiles', { count: s.mobiles })];
      if (!s.alarmOn) notes.push(t('why.alarmOff'));
      if (!s.channel) notes.push(t('why.channel'));
      if (!s.customer) notes.push(t('why.customer'));
      return { text: t('finding.sms', { value: f.value, limit: f.limit }), notes };
    }
    case 'expired':
      return { text: t('finding.expired', { date: f.calibExpiry, count: -f.value }), notes: [] };
    case 'expiring':
      return { text: f.value === 0 ? t('finding.expiringToday', { date: f.calibExpiry }) : t('finding.expiring', { date: f.calibExpiry, count: f.value }), notes: [] };
    case 'backupDaily': {
      const b = f.backup ?? { lastAt: null, failedAt: null, nextRunAt: null };
      const text = b.lastAt === null ? t('finding.backupNone') : t('finding.backupOld', { date: when(b.lastAt), count: f.value, limit: f.limit });
      const notes = [b.failedAt !== null ? t('why.backupFailed', { date: when(b.failedAt) }) : null, b.nextRunAt !== null ? t('why.backupNext', { date: when(b.nextRunAt) }) : null];
      return { text, notes: notes.filter((n): n is string => n !== null) };
    }
  }
}

/** A moment as the user's browser shows local times: date and minutes. */
const when = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** The record the finding is about, on its own page: the sensor's settings, the monitoring point, or the console's backups. */
export const placeOf = (f: ComplianceFinding) =>
  f.sensorId !== null ? `/SensorDetail?id=${f.sensorId}` : f.carrierId !== null ? `/carrierDetailPage?id=${f.carrierId}` : '/sys/backup';

export type Fix = 'configure' | 'editSensor' | 'editCarrier' | 'customer' | 'backups';
/** The function code each fix needs; the backups (platform only) need the parameters' view. */
const NEEDS: Record<Fix, string> = { configure: 'editSensor', editSensor: 'editSensor', editCarrier: 'editCarrier', customer: 'editCustomer', backups: 'viewParam' };

/**
 * The changes that clear a finding, those the caller may make: an interval is the device's
 * (configure it) or, while the device was never configured, the sensor's own setting too; SMS
 * reach is the monitoring point's contacts and alarm methods, and the customer's SMS switch;
 * a calibration date is the sensor's; the backups are the platform's, run or repaired on /sys/backup.
 */
export function fixesOf(f: ComplianceFinding, can: (code: string) => boolean): Fix[] {
  const all: Fix[] =
    f.check === 'interval'
      ? f.source === 'sensor'
        ? ['editSensor', 'configure']
        : ['configure']
      : f.check === 'smsReach'
        ? f.sms && !f.sms.customer
          ? ['editCarrier', 'customer']
          : ['editCarrier']
        : f.check === 'backup'
          ? ['backups']
          : ['editSensor'];
  return all.filter((x) => can(NEEDS[x]));
}
