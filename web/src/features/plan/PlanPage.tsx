/**
 * /plan?sceneId=: a floor plan (spec §3 funcType 1): its picture with the sensors placed on it,
 * each showing its live value coloured against its carrier's range. Editors upload the picture
 * (JPG or PNG), drag sensors from the list onto it, move or remove them, and save.
 * Playback (PlanPlayback.tsx) plays a period back on the plan: each sensor's value at the moment.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type DragEvent, type PointerEvent } from 'react';
import { useSearchParams } from 'react-router';
import { Alert, Button, Empty, Space, Spin, Typography, Upload } from 'antd';
import { CloseOutlined, EditOutlined, HistoryOutlined, SaveOutlined, UploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { planeApi, type LiveEvent, type PlacedSensor } from '@coldwatch/contract';
import { useAction, useCall, useUpload } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { PageCard } from '../../ui';
import { fmtValue, rangeState, RANGE_COLORS } from '../../lib/format';
import { useLiveStream } from '../databoard/useLiveStream';
import { clampFraction, withFrame, withReading, type Frame } from './planLogic';
import { PlanPlayback } from './PlanPlayback';
import './plan.css';

interface Marker {
  id: number;
  devNo: string;
  x: number;
  y: number;
  temp: number | null;
  hum: number | null;
  tempMin: number | null;
  tempMax: number | null;
  offline: boolean;
}

const toMarker = (s: PlacedSensor): Marker => ({ id: s.id, devNo: s.devNo, x: s.x, y: s.y, temp: s.temp, hum: s.hum, tempMin: s.tempMin, tempMax: s.tempMax, offline: s.status !== 1 });

export default function PlanPage() {
  const { t } = useTranslation('plan');
  const { can, user } = useAuth();
  const [params] = useSearchParams();
  const sceneId = Number(params.get('sceneId')) || 0;
  const info = useCall(planeApi.info, { query: { sceneId } }, { enabled: sceneId > 0 });
  const placed = useCall(planeApi.bound, { params: { id: sceneId } }, { enabled: sceneId > 0 });
  const [editing, setEditing] = useState(false);
  const free = useCall(planeApi.unbound, { query: { sceneId } }, { enabled: sceneId > 0 && editing });
  const [markers, setMarkers] = useState<Marker[]>([]);
  const box = useRef<HTMLDivElement>(null);
  const dragging = useRef<number | null>(null);
  const canEdit = can('editScene');
  // Playback's moment on the plan: null shows the live values.
  const [replay, setReplay] = useState(false);
  const [frame, setFrame] = useState<Frame | null>(null);
  // The saved placements play back (not a drag in progress): their identity changes only when they are read again.
  const sensors = useMemo(() => (placed.data ?? []).map((s) => ({ id: s.id, devNo: s.devNo })), [placed.data]);
  const shown = frame && !editing ? withFrame(markers, frame) : markers;

  useEffect(() => {
    if (placed.data) setMarkers(placed.data.map(toMarker));
  }, [placed.data]);
  const onEvents = useCallback((events: LiveEvent[]) => setMarkers((cur) => events.reduce((m, e) => (e.type === 'reading' ? withReading(m, e.data) : m), cur)), []);
  useLiveStream(onEvents);

  const upload = useUpload(planeApi.upload, { success: t('uploaded'), onDone: () => void info.refetch() });
  const save = useAction(planeApi.save, {
    success: t('saved'),
    onDone: () => {
      setEditing(false);
      void placed.refetch();
    },
  });

  const at = (clientX: number, clientY: number) => {
    const r = box.current!.getBoundingClientRect();
    return { x: clampFraction((clientX - r.left) / r.width), y: clampFraction((clientY - r.top) / r.height) };
  };
  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    const id = Number(e.dataTransfer.getData('text/plain'));
    const s = free.data?.find((f) => f.id === id);
    if (!s) return;
    const p = at(e.clientX, e.clientY);
    setMarkers((cur) => [...cur.filter((m) => m.id !== id), { id, devNo: s.devNo, ...p, temp: null, hum: null, tempMin: null, tempMax: null, offline: false }]);
  };
  const onMove = (e: PointerEvent) => {
    if (dragging.current === null) return;
    const p = at(e.clientX, e.clientY);
    setMarkers((cur) => cur.map((m) => (m.id === dragging.current ? { ...m, ...p } : m)));
  };

  if (!sceneId) return <PageCard><Empty description={t('noScene')} /></PageCard>;
  if (info.isError) return <PageCard><Alert type="error" showIcon title={t('notPlan')} /></PageCard>;
  if (!info.data) return <Spin style={{ display: 'block', padding: 80 }} />;
  const placedIds = new Set(markers.map((m) => m.id));

  return (
    <PageCard
      title={info.data.label}
      extra={
        <Space wrap>
          {info.data.hasImage && !editing && markers.length > 0 && (
            <Button icon={<HistoryOutlined />} type={replay ? 'primary' : 'default'} onClick={() => setReplay((r) => !r)}>
              {t('playback')}
            </Button>
          )}
          {canEdit && (
            <>
              <Upload accept=".jpg,.jpeg,.png" showUploadList={false} beforeUpload={(file) => (void upload.run({ file, query: { sceneId } }), false)}>
                <Button icon={<UploadOutlined />} loading={upload.busy}>
                  {info.data.hasImage ? t('replace') : t('upload')}
                </Button>
              </Upload>
              {editing ? (
                <>
                  <Button onClick={() => (setEditing(false), setMarkers(placed.data?.map(toMarker) ?? []))}>{t('cancel')}</Button>
                  <Button type="primary" icon={<SaveOutlined />} loading={save.busy} onClick={() => save.run({ body: { sceneId, positions: markers.map((m) => ({ sensorId: m.id, x: m.x, y: m.y })) } })}>
                    {t('save')}
                  </Button>
                </>
              ) : (
                <Button icon={<EditOutlined />} disabled={!info.data.hasImage} onClick={() => (setReplay(false), setEditing(true))}>
                  {t('place')}
                </Button>
              )}
            </>
          )}
        </Space>
      }
    >
      {!info.data.hasImage ? (
        <Empty description={canEdit ? t('noImageEdit') : t('noImage')} />
      ) : (
        <div className="cw-plan-view">
          {replay && !editing && <PlanPlayback sensors={sensors} timeZone={user?.timeZone ?? null} onFrame={setFrame} />}
          <div className="cw-plan">
            <div className="cw-plan-stage" ref={box} onDragOver={(e) => editing && e.preventDefault()} onDrop={onDrop} onPointerMove={onMove} onPointerUp={() => (dragging.current = null)}>
              <img src={`${planeApi.image.path}?sceneId=${sceneId}&v=${info.data.updatedAt ?? 0}`} alt={info.data.label} draggable={false} />
              {shown.map((m) => {
                const range = rangeState(m.temp, m.tempMin, m.tempMax);
                const color = m.offline ? '#bfbfbf' : RANGE_COLORS[range];
                return (
                  <div
                    key={m.id}
                    className={`cw-plan-marker${editing ? ' is-editing' : ''}`}
                    style={{ left: `${m.x * 100}%`, top: `${m.y * 100}%`, borderColor: color }}
                    data-dev={m.devNo}
                    data-range={m.offline ? 'offline' : range}
                    onPointerDown={(e) => {
                      if (!editing) return;
                      (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
                      dragging.current = m.id;
                    }}
                  >
                    <span className="cw-plan-dev">{m.devNo}</span>
                    <b style={{ color }}>{fmtValue(m.temp)}°C</b>
                    {m.hum !== null && <span>{fmtValue(m.hum)}%</span>}
                    {editing && (
                      <Button size="small" type="text" icon={<CloseOutlined />} aria-label={t('remove')} onClick={() => setMarkers((cur) => cur.filter((x) => x.id !== m.id))} />
                    )}
                  </div>
                );
              })}
            </div>
            {editing && (
              <aside className="cw-plan-list">
                <Typography.Text strong>{t('unplaced')}</Typography.Text>
                <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
                  {t('dragHint')}
                </Typography.Paragraph>
                {(free.data ?? [])
                  .filter((s) => !placedIds.has(s.id))
                  .map((s) => (
                    <div key={s.id} className="cw-plan-item" draggable onDragStart={(e) => e.dataTransfer.setData('text/plain', String(s.id))}>
                      <span className="cw-plan-dev">{s.devNo}</span>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {s.carrierName ?? t('noCarrier')}
                      </Typography.Text>
                    </div>
                  ))}
              </aside>
            )}
          </div>
        </div>
      )}
    </PageCard>
  );
}
