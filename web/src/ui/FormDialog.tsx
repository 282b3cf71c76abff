import type { ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { App, Modal, type FormInstance, type ModalProps } from 'antd';
import type { TFunction } from 'i18next';
import { errorMessage, ERROR_TOAST_SECONDS } from '../app/errors';

/** A field error for `form.setFields` (see `fieldErrors` / `serverFieldErrors` of features/sys/formRules). */
export interface FieldError {
  name: string;
  errors: string[];
}

/**
 * The save of an add/edit dialog: validate the form (stop quietly if invalid), run `save` with
 * the values (it calls the server and shows the success message), and on failure put the
 * server's field errors (`mapErrors`) onto the form and scroll to the first, or else show the
 * §8 message as a 1-second error toast. `saving` is true while `save` runs.
 */
export function useDialogSubmit<V>(form: FormInstance<V>, t: TFunction, mapErrors: (e: unknown) => FieldError[]) {
  const { message } = App.useApp();
  // The save is a TanStack mutation like every other change (api/hooks.ts useAction): its busy state is the dialog's.
  const m = useMutation({
    mutationFn: (run: () => Promise<void>) => run(),
    onError: (e) => {
      const all = mapErrors(e);
      if (all.length) {
        form.setFields(all as Parameters<typeof form.setFields>[0]);
        form.scrollToField(all[0].name as never, { block: 'center' });
      } else void message.error({ content: errorMessage(e, t), duration: ERROR_TOAST_SECONDS });
    },
  });

  const submit = async (save: (v: V) => Promise<void>) => {
    let v: V;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    await m.mutateAsync(() => save(v)).catch(() => undefined);
  };

  return { saving: m.isPending, submit };
}

/** A tall form scrolls inside the dialog body. */
const SCROLL_BODY: ModalProps['styles'] = { body: { maxHeight: '72vh', overflowY: 'auto', overflowX: 'hidden', paddingInlineEnd: 4 } };

export interface FormDialogProps extends Omit<ModalProps, 'onOk' | 'confirmLoading' | 'style' | 'styles'> {
  /** Shows the OK button's spinner. */
  saving: boolean;
  /** OK pressed. */
  onSubmit: () => unknown;
  /** Distance from the top of the window (default 8vh). */
  top?: string;
  /** Scroll the body inside the dialog (max 72vh). */
  scrollBody?: boolean;
  children?: ReactNode;
}

/** The Modal of an add/edit form dialog: kept mounted (forceRender) so the form exists before it opens, destroyed when hidden. */
export function FormDialog({ saving, onSubmit, top = '8vh', scrollBody, children, ...rest }: FormDialogProps) {
  return (
    <Modal
      {...rest}
      style={{ top }}
      confirmLoading={saving}
      styles={scrollBody ? SCROLL_BODY : undefined}
      onOk={() => void onSubmit()}
      destroyOnHidden
      forceRender
    >
      {children}
    </Modal>
  );
}
