/** Pure helpers of the "alarm mode statistics" home widget. */
import { NOTICE_CHANNELS, type NoticeChannel } from '@coldwatch/contract';

export interface AlarmCarrier {
  alarmOn: boolean;
  hasTrigger: boolean;
  pausedUntil: number | null;
  reachesNobody: boolean;
  channels: readonly NoticeChannel[];
}

export interface AlarmSummary {
  /** Spec §2 switch colours: green on, red off (closed), grey no trigger set; paused beside them. */
  on: number;
  off: number;
  noTrigger: number;
  paused: number;
  reachNobody: number;
  /** Carriers whose alarms go out on each channel (a carrier counts once per channel). */
  byChannel: Record<NoticeChannel, number>;
}

/**
 * Counts the carriers by their alarm switch as the board draws it (a carrier without a trigger is
 * grey whatever its switch), paused ones (spec §4) apart, and by the channels their alarms use.
 */
export function summariseAlarms(list: readonly AlarmCarrier[], now = Date.now()): AlarmSummary {
  const s: AlarmSummary = { on: 0, off: 0, noTrigger: 0, paused: 0, reachNobody: 0, byChannel: Object.fromEntries(NOTICE_CHANNELS.map((c) => [c, 0])) as Record<NoticeChannel, number> };
  for (const c of list) {
    if (!c.hasTrigger) s.noTrigger += 1;
    else if (!c.alarmOn) s.off += 1;
    else if (c.pausedUntil !== null && c.pausedUntil > now) s.paused += 1;
    else s.on += 1;
    if (c.alarmOn && c.reachesNobody) s.reachNobody += 1;
    if (c.alarmOn) for (const ch of c.channels) s.byChannel[ch] += 1;
  }
  return s;
}
