/**
 * The history chart's card: what is shown (a device, or a carrier's value and its sensors),
 * downsampling with an offer of the zoomed span at full detail, the zones and time zone, a
 * failed load with its retry, and the chart with the zone bands.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Card, Empty, Spin, Tag, Typography } from 'antd';
import { ZoomInOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { errorMessage } from '../../app/errors';
import { fmtValue, offsetMinutes } from '../../lib/format';
import { EChart } from './EChart';
import type { HistoryData } from './useHistoryData';

interface Props {
  data: HistoryData;
  deviceNo: string;
  carrierTitle: string | undefined;
  timeZone: string | null;
  onWidth: (w: number) => void;
  /** Show this span (the zoomed window at full detail). */
  onSpan: (r: [number, number]) => void;
  /** What resets the zoom window when it changes (span, device, carrier). */
  resetKey: string;
}

export function HistoryChartCard({ data: { q, carrier, carrierView, points, zone, withHum, option }, deviceNo, carrierTitle, timeZone, onWidth, onSpan, resetKey }: Props) {
  const { t } = useTranslation('history');
  // Zoomed into a downsampled series: offer the zoomed span at full detail. Axis values carry the zone shift.
  const [zoomed, setZoomed] = useState<[number, number] | null>(null);
  const shift = (offsetMinutes(timeZone) ?? 0) * 60_000;
  const onZoom = useCallback((w: [number, number] | null) => setZoomed(w ? [Math.round(w[0] - shift), Math.round(w[1] - shift)] : null), [shift]);
  useEffect(() => setZoomed(null), [resetKey]);

  return (
    <Card
      size="small"
      title={
        <span>
          {carrierView ? <span>{carrierTitle}</span> : <span className="cw-his-devno">{deviceNo}</span>}
          {carrierView && carrier && carrier.devNos.length > 0 && (
            <Typography.Text type="secondary" style={{ marginInlineStart: 8, fontWeight: 'normal' }}>
              {t('carrierSensors', { list: carrier.devNos.join(', ') })}
            </Typography.Text>
          )}
          {q.data?.downsampled && (
            <Tag color="processing" style={{ marginInlineStart: 8 }}>
              {t('downsampledShort')}
            </Tag>
          )}
          {q.data?.downsampled && zoomed && (
            <Button size="small" type="primary" ghost icon={<ZoomInOutlined />} onClick={() => onSpan(zoomed)}>
              {t('zoomDetail')}
            </Button>
          )}
        </span>
      }
      extra={
        <span className="cw-his-zones">
          {(zone.tempMin !== null || zone.tempMax !== null) && (
            <span>
              {t('tempZone')}: {fmtValue(zone.tempMin)} ~ {fmtValue(zone.tempMax)} °C
            </span>
          )}
          {withHum && (zone.humMin !== null || zone.humMax !== null) && (
            <span>
              {t('humZone')}: {fmtValue(zone.humMin)} ~ {fmtValue(zone.humMax)} %RH
            </span>
          )}
          {timeZone && <span>{t('timeZone', { tz: timeZone })}</span>}
        </span>
      }
    >
      {q.data?.downsampled && <Alert className="cw-his-note" type="info" showIcon title={t('downsampled', { count: points.length, total: q.data.total ?? points.length })} />}
      {q.isError && (
        <Alert
          className="cw-his-note"
          type="error"
          showIcon
          title={`${t('loadFailed')}: ${errorMessage(q.error, t)}`}
          action={
            <Button size="small" onClick={() => void q.refetch()}>
              {t('query')}
            </Button>
          }
        />
      )}
      <Spin spinning={q.isFetching}>
        <div style={{ position: 'relative' }}>
          <EChart option={option} height={400} onWidth={onWidth} onZoom={onZoom} />
          {!q.isFetching && q.isSuccess && points.length === 0 && (
            <div className="cw-his-empty">
              <Empty description={t('noData')} />
            </div>
          )}
        </div>
      </Spin>
    </Card>
  );
}
