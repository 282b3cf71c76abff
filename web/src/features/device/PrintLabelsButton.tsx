import { useState } from 'react';
import { App, Button, Tooltip } from 'antd';
import { PrinterOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { labelRefs, LABELS_MAX } from '@coldwatch/contract';
import { errorMessage } from '../../app/errors';
import { fetchReport } from '../printer/reportFile';

/**
 * "Print labels" of the sensor list: the chosen sensors' labels as an A4 PDF, as many a sheet as
 * the "labels per page" parameter of /sys/paramsetup says (docs/devices.md "Labels").
 */
export function PrintLabelsButton({ ids }: { ids: number[] }) {
  const { t } = useTranslation('device');
  const { message } = App.useApp();
  const [busy, setBusy] = useState(false);
  const print = async () => {
    setBusy(true);
    try {
      await fetchReport('POST', labelRefs.sensors.path, { ids });
    } catch (e) {
      void message.error(errorMessage(e, t));
    } finally {
      setBusy(false);
    }
  };
  const tooMany = ids.length > LABELS_MAX;
  return (
    <Tooltip title={tooMany ? t('labels.tooMany', { max: LABELS_MAX }) : ids.length ? undefined : t('labels.choose')}>
      <Button icon={<PrinterOutlined />} disabled={!ids.length || tooMany} loading={busy} onClick={() => void print()} data-testid="sensor-print-labels">
        {t('labels.print')}
        {ids.length ? ` (${ids.length})` : ''}
      </Button>
    </Tooltip>
  );
}
