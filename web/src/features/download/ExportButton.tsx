import { Button, Tooltip } from 'antd';
import { CloudDownloadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { Callable, CallInput, RouteDef } from '@coldwatch/contract';
import { useAuth } from '../../app/auth';
import { useExport } from './useExport';

/**
 * "Export" on a data page: creates an export task for what the page shows (null: nothing to
 * export yet, the button disabled with `why`), watched until it ends (docs/exports.md).
 */
export function ExportButton<D extends RouteDef>({ def, input, why, size }: { def: Callable<D>; input: CallInput<D> | null; why?: string; size?: 'small' | 'middle' }) {
  const { t } = useTranslation('download');
  const { can } = useAuth();
  const ex = useExport(def);
  if (!can('viewExportTask')) return null;
  const button = (
    <Button size={size} icon={<CloudDownloadOutlined />} loading={ex.busy} disabled={!input} className="cw-export-task" onClick={() => input && void ex.run(input)}>
      {t('action.export')}
    </Button>
  );
  return !input && why ? <Tooltip title={why}>{button}</Tooltip> : button;
}
