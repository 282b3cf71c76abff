/**
 * Playback of a period on the floor plan (issue 29, spec §9 speed grades 1 to 5): the same
 * player as the history chart (ui/Playback.tsx), the moment drawn as each placed sensor's value
 * then (planLogic.ts frameAt). Each sensor's period is read once per span, downsampled as the
 * history chart reads it (every bucket's extremes kept, so an excursion is not skipped).
 */
import { useEffect, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { Space, Typography } from 'antd';
import { useQueries } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { historyApi } from '@coldwatch/contract';
import { call, keyOf } from '../../api/call';
import { Playback } from '../../ui/Playback';
import { useHistorySpan } from '../history/historySpan';
import { SpanPicker } from '../history/SpanPicker';
import { frameAt, type Frame, type Sample } from './planLogic';

/** Points per sensor: 600 frames play a period (60 s at 10 frames a second), so more would not be seen. */
const MAX_POINTS = 1000;

interface Props {
  sensors: readonly { id: number; devNo: string }[];
  timeZone: string | null;
  /** The frame at the moment shown; null when playback stops (the plan shows live values again). */
  onFrame: (frame: Frame | null) => void;
}

export function PlanPlayback({ sensors, timeZone, onFrame }: Props) {
  const { t } = useTranslation('plan');
  const [params] = useSearchParams();
  const span = useHistorySpan(params, timeZone);
  const [start, end] = span.range;
  const [cursor, setCursor] = useState<number | null>(null);
  const answers = useQueries({
    queries: sensors.map((s) => {
      const input = { query: { deviceNo: s.devNo, start, end, maxPoints: MAX_POINTS } };
      return { queryKey: keyOf(historyApi.history, input), queryFn: () => call(historyApi.history, input), staleTime: 60_000 };
    }),
  });
  const loaded = answers.filter((a) => a.data).length;
  const dataKey = answers.map((a) => a.dataUpdatedAt).join(',');
  const series = useMemo(() => {
    const m = new Map<number, Sample[]>();
    sensors.forEach((s, i) => {
      const d = answers[i]?.data;
      if (d) m.set(s.id, d.points);
    });
    return m;
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the answers change identity each render; their update times say when they changed
  }, [sensors, dataKey]);

  const frame = useMemo(() => (cursor === null ? null : frameAt(series, cursor)), [series, cursor]);
  useEffect(() => onFrame(frame), [frame, onFrame]);
  // Leaving the page or closing the player shows live values again.
  useEffect(() => () => onFrame(null), [onFrame]);
  const reporting = frame ? [...frame.values()].filter(Boolean).length : 0;

  return (
    <div className="cw-plan-playback">
      <Space wrap size={[8, 8]}>
        <SpanPicker span={span} timeZone={timeZone} />
      </Space>
      <Playback
        span={span.range}
        onCursor={setCursor}
        timeZone={timeZone}
        status={
          <Typography.Text type="secondary" className="cw-plan-playback-status">
            {loaded < sensors.length ? t('playbackLoading', { loaded, total: sensors.length }) : frame ? t('playbackReporting', { count: reporting, total: sensors.length }) : null}
          </Typography.Text>
        }
      />
    </div>
  );
}
