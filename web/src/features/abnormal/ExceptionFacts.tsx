import { Badge, Descriptions, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ExceptionRow } from '@coldwatch/contract';
import { fmtNumber, formatDuration, formatInZone, RANGE_COLORS } from '../../lib/format';
import { categoryUnit, deviceText, exceptionSeconds, isDataCategory } from './exceptionFormat';

/** What both the detail and /exDetail show of an exception (the link's answer has no ids). */
export type ShownException = Omit<ExceptionRow, 'customerId' | 'carrierId' | 'sensorId' | 'gatewayId' | 'reasonId'>;

export const STATUS_BADGE: Record<number, 'error' | 'success' | 'default'> = { 0: 'error', 1: 'success', 2: 'default' };

/**
 * An exception's facts: where, what, when (in the customer's time zone), its values against the
 * limits, its state, and the current handling (the last step's).
 */
export function ExceptionFacts({ ex, timeZone, noticeCount }: { ex: ShownException; timeZone: string; noticeCount: number }) {
  const { t } = useTranslation('abnormal');
  const unit = categoryUnit(ex.category);
  const color = ex.category.endsWith('_high') ? RANGE_COLORS.high : ex.category.endsWith('_low') ? RANGE_COLORS.low : undefined;
  const seconds = exceptionSeconds(ex);
  const handled = ex.status !== 0;
  return (
    <Descriptions size="small" column={2} bordered data-testid="exception-facts" styles={{ label: { width: 120 } }}>
      <Descriptions.Item label={t('col.carrier')}>{ex.carrierName ?? '--'}</Descriptions.Item>
      <Descriptions.Item label={t('col.device')}>{deviceText(ex, t('carrierValue'))}</Descriptions.Item>
      <Descriptions.Item label={t('col.category')}>
        <Tag style={{ marginInlineEnd: 0 }}>{t(`category.${ex.category}`, { defaultValue: ex.category })}</Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('col.status')}>
        <Badge status={STATUS_BADGE[ex.status] ?? 'default'} text={t(`status.${ex.status}`)} />
        {ex.ongoing && (
          <Tag color="red" style={{ marginInlineStart: 8 }}>
            {t('detail.ongoing')}
          </Tag>
        )}
        {ex.duringPause && <DuringPauseTag />}
      </Descriptions.Item>
      <Descriptions.Item label={t('col.time')}>{formatInZone(ex.startTs, timeZone)}</Descriptions.Item>
      <Descriptions.Item label={t('detail.end')}>{ex.endTs && !ex.ongoing ? formatInZone(ex.endTs, timeZone) : '--'}</Descriptions.Item>
      <Descriptions.Item label={t('col.duration')}>{formatDuration(seconds, (u, n) => t(`unit.${u}`, { count: n }), t('unit.sep'))}</Descriptions.Item>
      <Descriptions.Item label={t('detail.notices')}>{t('detail.noticeCount', { count: noticeCount })}</Descriptions.Item>
      {isDataCategory(ex.category) && (
        <Descriptions.Item label={t('col.value')} span={2}>
          <b style={{ color }}>{t('value.peak', { v: `${fmtNumber(ex.peakValue)} ${unit}` })}</b>
          <span style={{ marginInlineStart: 12 }}>{t('value.first', { v: `${fmtNumber(ex.firstValue)} ${unit}` })}</span>
          <span style={{ marginInlineStart: 12, color: 'rgba(0,0,0,.55)' }}>{t('value.limits', { min: fmtNumber(ex.limitMin), max: fmtNumber(ex.limitMax) })}</span>
        </Descriptions.Item>
      )}
      {handled && (
        <>
          <Descriptions.Item label={t('detail.reason')}>{ex.reason || '--'}</Descriptions.Item>
          <Descriptions.Item label={t('detail.judgement')}>{ex.judgement ? t(`judgement.${ex.judgement}`) : '--'}</Descriptions.Item>
          <Descriptions.Item label={t('detail.measures')} span={2}>
            {ex.measures || '--'}
          </Descriptions.Item>
          <Descriptions.Item label={t('detail.excluded')} span={2}>
            {ex.excluded ? t('detail.excludedYes', { why: ex.excludedWhy }) : t('detail.excludedNo')}
          </Descriptions.Item>
        </>
      )}
      <Descriptions.Item label={t('detail.customer')} span={2}>
        {ex.customerName}
        <span style={{ marginInlineStart: 8, color: 'rgba(0,0,0,.45)' }}>{t('detail.timeZone', { tz: timeZone })}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * An exception opened while its carrier's alarm was paused: on record like any other (a GxP
 * record has no holes), but nobody was told then, so the list and the detail say so.
 */
export function DuringPauseTag({ inline = true }: { inline?: boolean }) {
  const { t } = useTranslation('abnormal');
  return (
    <Tooltip title={t('duringPauseHelp')}>
      <Tag color="gold" style={{ marginInlineStart: inline ? 8 : 0, marginInlineEnd: 0, marginTop: inline ? 0 : 4, cursor: 'help' }} data-during-pause>
        {t('duringPause')}
      </Tag>
    </Tooltip>
  );
}
