import { useCallback, useEffect, useState } from 'react';
import type { FormInstance } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/client';
import { errorMessage } from '../../app/errors';
import { signFieldErrors } from './SignFields';

/**
 * What every signing dialog does with the answer: a refused signature (wrong account or
 * password, locked) lands under its field, any other refusal in the dialog's alert; a signed
 * step reloads the list and closes the dialog. Given the dialog's target, a new target starts
 * from an empty form and no error (`prepare` fills what a target brings, as a correction's
 * handling); `validated` answers the form's values once valid, with the last error cleared.
 */
export function useSignedStep<V, T = unknown>(form: FormInstance<V>, onDone: () => void, onClose: () => void, target?: T | null, prepare?: (target: T) => void) {
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
  useEffect(() => {
    if (!target) return;
    form.resetFields();
    setError(null);
    prepare?.(target);
    // prepare is read when the target changes, not on each render.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target, form]);
  const validated = useCallback(async (): Promise<V | null> => {
    try {
      const v = await form.validateFields();
      setError(null);
      return v;
    } catch {
      return null; // the form shows what is missing
    }
  }, [form]);
  return { error, setError, failed, done, validated };
}

/** The signature of a step as sent: the account as typed without its spaces, the password as typed. */
export const signatureOf = (sign: { account: string; password: string }) => ({ account: sign.account.trim(), password: sign.password });
