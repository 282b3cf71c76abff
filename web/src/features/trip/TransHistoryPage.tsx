/**
 * /transHistory (spec §2; docs/transport.md): the trips of carriers in transport mode, started and
 * ended here, each with its transport code (QR code and link to /traceDetail); the chosen trip's
 * route on the map coloured by temperature against the zone, its temperature chart and figures,
 * and playback of the trip at the spec's speed grades (the one player, ui/Playback.tsx) moving
 * the vehicle along the route.
 */
import { useMemo, useRef, useState } from 'react';
import { Button, Card, Empty, Form, Input, Modal, QRCode, Select, Space, Statistic, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { TRIP_STATUS, carrierApi, paramApi, tripApi, type TripRow } from '@coldwatch/contract';
import { useAction, useCall } from '../../api/hooks';
import { useAuth } from '../../app/auth';
import { AddButton, PageCard, PagedTable, linkActionsColumn, tableColumns, type ListColumn, type PagedTableRef } from '../../ui';
import { Playback } from '../../ui/Playback';
import { fmtValue, formatInZone } from '../../lib/format';
import { TripMap } from './TripMap';
import { PlacesCard } from './PlacesCard';
import { SensorChart } from '../history/SensorChart';
import { positionAt, tempAt } from './tripLogic';

interface StartValues {
  carrierId: number;
  origin?: string;
  destination?: string;
  cargo?: string;
}

/** The carriers in transport mode the caller sees, to start a trip of. */
function TransportCarrierSelect({ value, onChange, open }: { value?: number; onChange?: (v: number) => void; open: boolean }) {
  const q = useCall(carrierApi.page, { query: { iDisplayLength: 100, mode: 'transport' } }, { enabled: open });
  return <Select value={value} onChange={onChange} loading={q.isLoading} options={(q.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name }))} showSearch optionFilterProp="label" data-testid="trip-carrier" />;
}

/** The chosen trip: map, playback, chart and figures. */
function TripView({ id }: { id: number }) {
  const { t } = useTranslation('trip');
  const { user } = useAuth();
  const q = useCall(tripApi.detail, { query: { id } });
  // The monitor map's tile parameter (empty: the plain graticule, for consoles offline).
  const tileUrl = useCall(paramApi.list).data?.map_tile_url ?? '';
  const [cursor, setCursor] = useState<number | null>(null);
  const d = q.data;
  const span = useMemo<[number, number]>(() => (d ? [d.trip.startTime, d.trip.endTime ?? Date.now()] : [0, 1]), [d]);
  if (!d) return <Card loading style={{ marginTop: 16 }} />;
  const zone = d.statistic?.zone ?? { tempMin: null, tempMax: null };
  const points = d.readings[0]?.points ?? [];
  // Played: the route up to the cursor, the vehicle where it was then.
  const route = cursor === null ? d.route : d.route.filter((p) => p.ts <= cursor);
  const here = cursor === null ? null : positionAt(d.route, cursor);
  const temp = d.statistic?.summary.temp;
  const at = (ms: number) => formatInZone(ms, user?.timeZone, 'YYYY-MM-DD HH:mm:ss');
  return (
    <Card size="small" style={{ marginTop: 16 }} title={`${d.trip.carrierName} · ${d.trip.cargo || '--'}`} data-testid="trip-view">
      {temp && (
        <Space size="large" wrap style={{ marginBottom: 12 }}>
          <Statistic title={t('fig.min')} value={fmtValue(temp.min)} suffix="°C" />
          <Statistic title={t('fig.max')} value={fmtValue(temp.max)} suffix="°C" />
          <Statistic title={t('fig.mkt')} value={fmtValue(temp.mkt, 2)} suffix="°C" />
          <Statistic title={t('trace.excursions', { n: d.excursions.length })} value={d.excursions.length} />
        </Space>
      )}
      {d.route.length ? (
        <TripMap route={route.length ? route : d.route.slice(0, 1)} points={points} zone={zone} cursor={here ?? null} frame={d.route} tileUrl={tileUrl} height={360} labels={{ start: t('map.start'), end: t('map.end'), tilesFailed: t('map.tilesFailed') }} />
      ) : (
        <Empty description={t('noRoute')} />
      )}
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('map.legend')}
      </Typography.Text>
      <div style={{ marginTop: 12 }}>
        <Playback
          span={span}
          onCursor={setCursor}
          timeZone={user?.timeZone ?? null}
          status={cursor === null ? null : <span>{t('playAt', { time: at(cursor), temp: fmtValue(tempAt(points, cursor)) })}</span>}
        />
      </div>
      {d.readings.map((s) => (
        <SensorChart key={s.deviceNo} sensor={cursor === null ? s : { ...s, points: s.points.filter((p) => p.ts <= cursor) }} span={span} timeZone={user?.timeZone} height={260} />
      ))}
    </Card>
  );
}

export default function TransHistoryPage() {
  const { t } = useTranslation('trip');
  const { can, user } = useAuth();
  const [params, setParams] = useSearchParams();
  const chosen = Number(params.get('id')) || null;
  const table = useRef<PagedTableRef>(null);
  const [starting, setStarting] = useState(false);
  const [code, setCode] = useState<{ url: string; expiresAt: number } | null>(null);
  const [form] = Form.useForm<StartValues>();
  const reload = () => table.current?.reload();
  const at = (ms: number | null) => (ms === null ? '--' : formatInZone(ms, user?.timeZone, 'YYYY-MM-DD HH:mm'));
  const start = useAction(tripApi.start, { success: t('msg.started'), onDone: (r) => (setStarting(false), reload(), setParams({ id: String(r.id) })) });
  const end = useAction(tripApi.end, { success: t('msg.ended'), onDone: reload });
  const makeCode = useAction(tripApi.code, { success: false, onDone: setCode });
  const submit = async () => {
    const v = await form.validateFields();
    await start.run({ body: { carrierId: v.carrierId, origin: v.origin ?? '', destination: v.destination ?? '', cargo: v.cargo ?? '' } });
  };

  const columns: ListColumn<TripRow>[] = [
    { title: t('col.carrier'), dataIndex: 'carrierName', width: 150 },
    { title: t('col.cargo'), dataIndex: 'cargo', width: 180, render: (v: string) => v || '--' },
    {
      title: t('col.route'),
      key: 'route',
      width: 240,
      render: (_, r) => (
        <>
          {`${r.origin || '--'} → ${r.destination || '--'}`} {r.auto && <Tag title={t('place.autoHint')}>{t('place.auto')}</Tag>}
        </>
      ),
    },
    { title: t('col.start'), dataIndex: 'startTime', width: 150, render: (v: number) => at(v) },
    { title: t('col.end'), dataIndex: 'endTime', width: 150, render: (v: number | null) => at(v) },
    { title: t('col.status'), dataIndex: 'status', width: 100, render: (v: number) => <Tag color={v === TRIP_STATUS.underWay ? 'processing' : 'default'}>{t(`status.${v}`)}</Tag> },
    { title: t('col.positions'), dataIndex: 'positions', width: 90 },
    linkActionsColumn<TripRow>(
      {
        title: t('col.actions'),
        width: 220,
        items: [
          { key: 'view', perm: 'viewCar', label: t('action.view'), onClick: (r) => setParams({ id: String(r.id) }) },
          { key: 'code', perm: 'newCar', label: t('action.code'), onClick: (r) => makeCode.run({ body: { id: r.id } }) },
          {
            key: 'end',
            perm: 'editCar',
            when: (r) => r.status === TRIP_STATUS.underWay,
            label: t('action.end'),
            confirm: () => ({ title: t('confirm.end'), okText: t('action.end'), cancelText: t('cancel') }),
            onClick: (r) => end.run({ body: { id: r.id } }),
          },
        ],
      },
      can,
    ),
  ];

  return (
    <PageCard
      title={t('title')}
      extra={
        <AddButton perm="newCar" onClick={() => (form.resetFields(), setStarting(true))}>
          {t('start.title')}
        </AddButton>
      }
    >
      <Typography.Paragraph type="secondary">{t('intro')}</Typography.Paragraph>
      <PagedTable ref={table} route={tripApi.page} size="small" rowKey="id" columns={tableColumns(columns)} locale={{ emptyText: t('empty') }} scroll={{ x: 1300 }} />
      {chosen && <TripView id={chosen} />}
      <PlacesCard />
      <Modal open={starting} title={t('start.title')} okText={t('start.ok')} cancelText={t('cancel')} onOk={submit} onCancel={() => setStarting(false)} confirmLoading={start.busy} destroyOnHidden>
        <Form form={form} layout="vertical" name="tripStartForm">
          <Form.Item name="carrierId" label={t('col.carrier')} extra={t('start.carrierHint')} rules={[{ required: true, message: t('start.carrierRequired') }]}>
            <TransportCarrierSelect open={starting} />
          </Form.Item>
          <Form.Item name="origin" label={t('col.origin')} rules={[{ max: 100 }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="destination" label={t('col.destination')} rules={[{ max: 100 }]}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="cargo" label={t('col.cargo')} rules={[{ max: 200 }]}>
            <Input.TextArea maxLength={200} rows={2} />
          </Form.Item>
        </Form>
      </Modal>
      <Modal open={!!code} title={t('code.title')} footer={null} onCancel={() => setCode(null)} destroyOnHidden>
        {code && (
          <Space direction="vertical" align="center" style={{ width: '100%' }}>
            <QRCode value={code.url} size={200} />
            <Typography.Paragraph copyable={{ text: code.url }} style={{ wordBreak: 'break-all', textAlign: 'center' }} data-testid="trip-code-url">
              {code.url}
            </Typography.Paragraph>
            <Typography.Text type="secondary">{t('code.expires', { time: at(code.expiresAt) })}</Typography.Text>
            <Button onClick={() => void navigator.clipboard?.writeText(code.url)}>{t('code.copy')}</Button>
          </Space>
        )}
      </Modal>
    </PageCard>
  );
}
