/** The detail page's head: the carrier's switch, name, type, status and state; its value by sample mode; its settings. */
import type { ReactNode } from 'react';
import { Badge, Card, Col, Descriptions, Row, Space, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { climateOf } from '@coldwatch/contract';
import { PageCard } from '../../ui';
import { fmtValue, formatInZone, rangeState, RANGE_COLORS } from '../../lib/format';
import { useAuth } from '../../app/auth';
import type { MonitorCarrier } from '../databoard/monitorState';
import { AlarmSwitch } from './AlarmSwitch';
import { carrierStatusLabel, carrierTypeLabel, STATUS_COLORS, zoneText } from './carrierLabels';

/** A big value coloured by its zone (`data-range` for tests), with its zone under it. */
function BigValue({ v, min, max, unit, label }: { v: number | null; min: number | null; max: number | null; unit: string; label: string }) {
  const { t } = useTranslation('carrier');
  return (
    <div>
      <Typography.Text type="secondary">{label}</Typography.Text>
      <div style={{ fontSize: 34, fontWeight: 600, lineHeight: 1.2, color: RANGE_COLORS[rangeState(v, min, max)] }} data-range={rangeState(v, min, max)}>
        {fmtValue(v)}
        <small style={{ fontSize: 14, marginInlineStart: 4 }}>{unit}</small>
      </div>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('detail.zone')}: {zoneText(min, max, unit)}
      </Typography.Text>
    </div>
  );
}

export function CarrierSummary({ c, editable, onChanged, extra }: { c: MonitorCarrier; editable: boolean; onChanged: () => void; extra: ReactNode }) {
  const { t } = useTranslation('carrier');
  const { user } = useAuth();
  // The carrier's one value by its sample mode: the same definition as the board and the map (contract board.ts).
  const { temp, hum } = climateOf(c);
  return (
    <PageCard
      title={
        <Space wrap>
          <AlarmSwitch carrier={c} editable={editable} onChanged={onChanged} />
          <span>{c.name}</span>
          <Tag>{carrierTypeLabel(t, c.type)}</Tag>
          <Tag color={STATUS_COLORS[c.status]}>{carrierStatusLabel(t, c.status)}</Tag>
          <Badge status={c.state === 'abnormal' ? 'error' : c.state === 'normal' ? 'success' : 'default'} text={t(`state.${c.state}`)} />
          {/* An alarm that would reach nobody is a defect the page shows (docs/alarms.md "Triggers"). */}
          {c.reachesNobody && (
            <Tooltip title={t('form.reachesNobodyHelp')}>
              <Tag color="warning">{t('form.reachesNobody')}</Tag>
            </Tooltip>
          )}
          {c.pausedUntil !== null && <Tag color="gold">{t('form.pausedUntil', { time: formatInZone(c.pausedUntil, user?.timeZone, 'YYYY-MM-DD HH:mm') })}</Tag>}
        </Space>
      }
      extra={extra}
    >
      <Row gutter={[24, 16]}>
        <Col xs={24} md={8}>
          <Card size="small" title={t('detail.value', { mode: t(`sampleMode.${c.sampleMode}`) })}>
            <Space size={32} wrap>
              <BigValue v={temp} min={c.tempMin} max={c.tempMax} unit="°C" label={t('detail.temp')} />
              {(c.humMin !== null || hum !== null) && <BigValue v={hum} min={c.humMin} max={c.humMax} unit="%RH" label={t('detail.hum')} />}
            </Space>
          </Card>
        </Col>
        <Col xs={24} md={16}>
          <Descriptions
            size="small"
            column={{ xs: 1, sm: 2 }}
            items={[
              { key: 'scene', label: t('col.scene'), children: c.sceneLabel },
              { key: 'customer', label: t('col.customer'), children: c.customerName },
              { key: 'mode', label: t('col.mode'), children: t(`mode.${c.mode}`, { defaultValue: c.mode }) },
              { key: 'load', label: t('col.loadType'), children: t(`loadType.${c.loadType}`) },
              { key: 'trigger', label: t('form.trigger'), children: c.triggerName ?? t('form.triggerNone') },
              { key: 'methods', label: t('form.alarmMethods'), children: c.channels.map((m) => t(`channel.${m}`)).join(', ') },
              { key: 'delay', label: t('form.alarmDelayS'), children: `${c.alarmDelayS} ${t('form.seconds')}` },
              { key: 'margin', label: t('form.margin'), children: c.humMin !== null ? `${c.tempMargin} °C · ${c.humMargin} %RH` : `${c.tempMargin} °C` },
              { key: 'open', label: t('detail.openExceptions'), children: c.openExceptions ? <Tag color="red">{c.openExceptions}</Tag> : 0 },
              { key: 'trace', label: t('form.traceable'), children: c.traceable ? t('yes') : t('no') },
              { key: 'kpi', label: t('form.isKpi'), children: c.isKpi ? t('yes') : t('no') },
            ]}
          />
        </Col>
      </Row>
    </PageCard>
  );
}
