/** The quick ranges of spec §9 and the span picker on the customer's wall clock: the history and detail-data toolbars share them. */
import { DatePicker, Segmented } from 'antd';
import { useTranslation } from 'react-i18next';
import { toWall } from '../../lib/format';
import { QUICK_RANGES, quickRange, type QuickRange } from './historyLogic';
import { instantsOf, type useHistorySpan } from './historySpan';

interface Props {
  span: ReturnType<typeof useHistorySpan>;
  timeZone: string | null;
}

export function SpanPicker({ span: { quick, range: [start, end], pickQuick, pick }, timeZone }: Props) {
  const { t } = useTranslation('history');
  return (
    <>
      <Segmented<QuickRange | ''> value={quick ?? ''} onChange={(k) => k && pickQuick(k)} options={QUICK_RANGES.map((k) => ({ value: k, label: t(`quick.${k}`) }))} />
      <DatePicker.RangePicker
        showTime={{ format: 'HH:mm' }}
        format="YYYY-MM-DD HH:mm"
        value={[toWall(start, timeZone), toWall(end, timeZone)]}
        allowClear={false}
        disabledDate={(d) => d.isAfter(toWall(Date.now(), timeZone).endOf('day'))}
        presets={(['week', 'month', 'quarter'] as const).map((k) => ({ label: t(`quick.${k}`), value: () => quickRange(k, toWall(Date.now(), timeZone)) }))}
        onChange={(v) => {
          if (v && v[0] && v[1]) pick(instantsOf([v[0], v[1]], timeZone));
        }}
      />
    </>
  );
}
