import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Button, Segmented, Slider, Tooltip } from 'antd';
import { CaretRightOutlined, PauseOutlined, StopOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { formatInZone } from '../lib/format';
import { advance, FRAME_MS, GRADE_NAMES, PLAYBACK_GRADES, type PlaybackGrade } from './playback';
import './playback.css';

export interface PlaybackProps {
  /** The period played, epoch ms. */
  span: [number, number];
  /** The moment shown, each frame and on a drag of the slider; null when playback stops (show the whole period). */
  onCursor: (cursor: number | null) => void;
  /** Times shown in this zone ('+08:00'). */
  timeZone: string | null;
  /** What the caller shows of the moment (the values at the cursor, a vehicle's position). */
  status?: ReactNode;
}

/**
 * Playback of a period (spec §9 speed grades 1 to 5): play, pause, stop, a slider to move the
 * moment by hand and the grade. The caller draws the moment it is given (the history chart up to
 * the cursor; a route up to the vehicle's position). Pure steps in playback.ts.
 */
export function Playback({ span, onCursor, timeZone, status }: PlaybackProps) {
  const { t } = useTranslation();
  const [cursor, setCursor] = useState<number | null>(null);
  const [playing, setPlaying] = useState(false);
  const [grade, setGrade] = useState<PlaybackGrade>(1);
  const spanKey = `${span[0]}:${span[1]}`;
  const latest = useRef({ cursor, span, grade });
  latest.current = { cursor, span, grade };

  const show = (c: number | null) => {
    setCursor(c);
    onCursor(c);
  };

  // A new period stops what was playing.
  useEffect(() => {
    setPlaying(false);
    setCursor(null);
    onCursor(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only when the period changes
  }, [spanKey]);

  useEffect(() => {
    if (!playing) return;
    const timer = setInterval(() => {
      const { cursor: c, span: s, grade: g } = latest.current;
      const next = advance(c ?? s[0], s, g);
      show(next.cursor);
      if (next.done) setPlaying(false);
    }, FRAME_MS);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the timer reads the latest state through the ref
  }, [playing]);

  const play = () => {
    // From the start again once the end was reached.
    if (cursor === null || cursor >= span[1]) show(span[0]);
    setPlaying(true);
  };
  const stop = () => {
    setPlaying(false);
    show(null);
  };

  return (
    <div className="cw-playback" data-testid="playback">
      <Tooltip title={playing ? t('playback.pause') : t('playback.play')}>
        <Button type="primary" shape="circle" icon={playing ? <PauseOutlined /> : <CaretRightOutlined />} onClick={playing ? () => setPlaying(false) : play} aria-label={playing ? t('playback.pause') : t('playback.play')} />
      </Tooltip>
      <Tooltip title={t('playback.stop')}>
        <Button shape="circle" icon={<StopOutlined />} disabled={cursor === null} onClick={stop} aria-label={t('playback.stop')} />
      </Tooltip>
      <Slider
        className="cw-playback-slider"
        min={span[0]}
        max={span[1]}
        step={Math.max(1, Math.round((span[1] - span[0]) / 1000))}
        value={cursor ?? span[1]}
        tooltip={{ formatter: (v) => (v === undefined ? '' : formatInZone(v, timeZone, 'MM-DD HH:mm')) }}
        onChange={(v) => {
          setPlaying(false);
          show(v);
        }}
      />
      <span className="cw-playback-time">{cursor === null ? t('playback.whole') : formatInZone(cursor, timeZone, 'YYYY-MM-DD HH:mm')}</span>
      <Segmented<PlaybackGrade> size="small" value={grade} onChange={setGrade} options={PLAYBACK_GRADES.map((g) => ({ value: g, label: <Tooltip title={t(`playback.speed.${GRADE_NAMES[g]}`)}>{String(g)}</Tooltip> }))} aria-label={t('playback.speedLabel')} />
      {status}
    </div>
  );
}
