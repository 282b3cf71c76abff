import { useEffect, useSyncExternalStore } from 'react';
import { App, Typography } from 'antd';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import { downloadRefs } from '@coldwatch/contract';
import { call } from '../../api/call';
import { forget, subscribe, update, watched } from './watch';

/** Spec §9: the download poll, every second. */
export const POLL_MS = 1_000;

/**
 * Polls the watch list every second while it holds keys; when a task ends it leaves the list and
 * a notice says so: success with a link to the download page, failure with its reason (§4).
 */
export function DownloadWatcher() {
  const { t } = useTranslation('download');
  const { notification } = App.useApp();
  const navigate = useNavigate();
  const list = useSyncExternalStore(subscribe, () => watched().join(','));

  useEffect(() => {
    if (!list) return;
    const keys = list.split(',');
    let live = true;
    const timer = setInterval(() => {
      call(downloadRefs.userProgress, { query: { keys: keys.join(',') } })
        .then((rows) => {
          if (!live) return;
          const seen = new Set(rows.map((r) => r.key));
          // A key the server no longer knows (deleted) leaves quietly.
          for (const k of keys) if (!seen.has(k)) forget(k);
          for (const r of rows) {
            update(r);
            if (!r.end) continue;
            if (r.status === 'generated')
              notification.success({
                key: r.key,
                title: t('notice.done'),
                description: (
                  <span>
                    {t('notice.doneText', { name: r.name })}{' '}
                    <Typography.Link className="cw-download-link" onClick={() => (notification.destroy(r.key), navigate('/download'))}>
                      {t('notice.open')}
                    </Typography.Link>
                  </span>
                ),
                duration: 8,
              });
            else notification.error({ key: r.key, title: t('notice.failed'), description: `${r.name}: ${r.error ?? ''}`, duration: 8 });
          }
        })
        .catch(() => undefined);
    }, POLL_MS);
    return () => {
      live = false;
      clearInterval(timer);
    };
  }, [list, navigate, notification, t]);
  return null;
}
