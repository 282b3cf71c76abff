import { useState } from 'react';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { signFieldErrors } from './SignFields';

/**
 * What every signing dialog does with the answer: a refused signature (wrong account or
 * password, locked) lands under its field, any other refusal in the dialog's alert; a signed
 * step reloads the list and closes the dialog.
 */
export function useSignedStep<V>(form: FormInstance<V>, onDone: () => void, onClose: () => void) {
  const { t } = useTranslation('abnormal');
  const [error, setError] = useState<string | null>(null);
  const failed = (e: unknown) => {
    const fields = e instanceof ApiError ? signFieldErrors(e.details) : [];
    if (fields.length) form.setFields(fields as Parameters<typeof form.setFields>[0]);
    else setError(errorMessage(e, t));
    return true;
  };
  const done = () => {
    onDone();
    onClose();
  };
  return { error, setError, failed, done };
}
