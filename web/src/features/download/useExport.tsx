import { App, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { Callable, CallInput, RouteDef, ExportCreated } from '@coldwatch/contract';
import { useAction } from '../../api/hooks';
import { watchExport } from './watch';

/**
 * An export button's action: creates the task (a download record being generated on the
 * server), puts it on the watch list and says so, linking to the export task page.
 */
export function useExport<D extends RouteDef>(def: Callable<D>) {
  const { t } = useTranslation('download');
  const { message } = App.useApp();
  const navigate = useNavigate();
  const action = useAction(def, {
    success: false,
    onDone: (r) => {
      const created = r as unknown as ExportCreated;
      watchExport(created.key);
      void message.info({
        key: created.key,
        content: (
          <span>
            {t('notice.created', { name: created.name })}{' '}
            <Typography.Link onClick={() => navigate('/count/exportTask')}>{t('notice.tasks')}</Typography.Link>
          </span>
        ),
        duration: 4,
      });
    },
  });
  return { run: (input: CallInput<D>) => action.run(input), busy: action.busy };
}
