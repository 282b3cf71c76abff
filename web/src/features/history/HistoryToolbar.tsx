/** The history page's toolbar: the device (or carrier) picker, the quick ranges and the span picker on the wall clock. */
import { DatePicker, Segmented, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { toWall } from '../../lib/format';
import { DevicePicker } from './DevicePicker';
import { QUICK_RANGES, quickRange, type QuickRange } from './historyLogic';
import { instantsOf, type useHistorySpan } from './historySpan';

interface Props {
  deviceNo: string;
  carrierId: number | undefined;
  carrierLabel: string | undefined;
  onDevice: (v: string) => void;
  span: ReturnType<typeof useHistorySpan>;
  timeZone: string | null;
}

export function HistoryToolbar({ deviceNo, carrierId, carrierLabel, onDevice, span: { quick, range: [start, end], pickQuick, pick }, timeZone }: Props) {
  const { t } = useTranslation('history');
  return (
    <div className="cw-his-toolbar">
      <Typography.Text>{t('device')}</Typography.Text>
      <DevicePicker value={deviceNo} carrierId={carrierId} carrierLabel={carrierLabel} onChange={onDevice} />
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
    </div>
  );
}
