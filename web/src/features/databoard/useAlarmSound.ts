import { useRef } from 'react';
import { paramRefs } from '@coldwatch/contract';
import { useCall } from '../../api/hooks';
import { useLiveStream } from './useLiveStream';
import { ALARM_SOUND_DEFAULTS, newAlarms, playAlarm, settingOf } from './alarmSound';

/** The device monitor's sound: each exception that opens on the live stream beeps as /sys/paramsetup says (alarmSound.ts). */
export function useAlarmSound() {
  const params = useCall(paramRefs.list, undefined, { staleTime: 300_000 });
  const heard = useRef(new Set<number>());
  const volume = settingOf(params.data?.alarm_volume, ALARM_SOUND_DEFAULTS.volume, 100);
  const count = settingOf(params.data?.alarm_count, ALARM_SOUND_DEFAULTS.count, 10);
  useLiveStream(
    (events) => {
      if (newAlarms(events, heard.current).length) playAlarm(volume, count);
    },
    { watch: EXCEPTIONS_ONLY },
  );
}

/** The sound follows exceptions alone: it watches no sensor's readings. */
const EXCEPTIONS_ONLY: readonly number[] = [];
