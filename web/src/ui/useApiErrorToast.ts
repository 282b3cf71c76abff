import { useCallback } from 'react';
import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../api/client';
import { errorMessage, ERROR_TOAST_SECONDS, reactionFor } from '../app/errors';

/**
 * Shows a failed call as a one-second error toast (spec §8), with the server's message or the
 * catalogue's. Session-level failures (expired, offline…) are already handled by the shell and
 * are skipped here so the user sees one message.
 */
export function useApiErrorToast() {
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    (e: unknown) => {
      if (e instanceof ApiError && reactionFor(e, t).kind !== 'none') return;
      void message.error({ content: errorMessage(e, t), duration: ERROR_TOAST_SECONDS });
    },
    [message, t],
  );
}
