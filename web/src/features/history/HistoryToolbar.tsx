/** The history page's toolbar: the device (or carrier) picker, the quick ranges and the span picker on the wall clock. */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { DevicePicker } from './DevicePicker';
import type { useHistorySpan } from './historySpan';
import { SpanPicker } from './SpanPicker';
import { exportRefs } from '@coldwatch/contract';
import { ExportButton } from '../download/ExportButton';

interface Props {
  deviceNo: string;
  carrierId: number | undefined;
  carrierLabel: string | undefined;
  onDevice: (v: string) => void;
  span: ReturnType<typeof useHistorySpan>;
  timeZone: string | null;
}

export function HistoryToolbar({ deviceNo, carrierId, carrierLabel, onDevice, span, timeZone }: Props) {
  const { t } = useTranslation('history');
  return (
    <div className="cw-his-toolbar">
      <Typography.Text>{t('device')}</Typography.Text>
      <DevicePicker value={deviceNo} carrierId={carrierId} carrierLabel={carrierLabel} onChange={onDevice} />
      <SpanPicker span={span} timeZone={timeZone} />
      <ExportButton
        def={exportRefs.history}
        input={deviceNo || carrierId ? { body: { ...(deviceNo ? { deviceNo } : { carrierIds: [carrierId!] }), start: span.range[0], end: span.range[1], format: 'xlsx' } } : null}
      />
    </div>
  );
}
