import { useEffect, type ReactNode } from 'react';
import { useMutation } from '@tanstack/react-query';
import { App, Form, Modal, type FormInstance, type ModalProps } from 'antd';
import type { TFunction } from 'i18next';
import type { Callable, CallInput, RouteDef } from '@coldwatch/contract';
import { call } from '../api/call';
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

export interface RecordDialogOptions<R, V> {
  /** null: closed; 'new': adding one; a row: editing it. */
  target: R | 'new' | null;
  t: TFunction;
  /** The server's field errors to put on the form (`serverFieldErrors` of features/sys/formRules). */
  errors: (e: unknown) => FieldError[];
  /** The form's values as the dialog opens: a new record's defaults, or the row's (undefined: the fields' own). */
  values: (target: R | 'new') => Parameters<FormInstance<V>['setFieldsValue']>[0] | undefined;
  /** After a save (the list reloads). */
  onDone: () => void;
  onClose: () => void;
}

type Body<D extends RouteDef> = CallInput<D>['body'];

/** A module's add and update operations, and the toast after each. */
export interface SaveTo<A extends RouteDef, U extends RouteDef> {
  add: Callable<A>;
  update: Callable<U>;
  added: string;
  updated: string;
}

/**
 * The form of an add/edit dialog over one record: emptied and filled each time the dialog opens,
 * and `save` (validate, then the add call or the update call with the row's id, the success
 * toast, `onDone`, close), with `useDialogSubmit`'s handling of a refused save. `row` is the
 * record edited (null when adding); `submit` is there for a save of another shape.
 */
export function useRecordDialog<R extends { id: number }, V>(o: RecordDialogOptions<R, V>) {
  const { message } = App.useApp();
  const [form] = Form.useForm<V>();
  const { saving, submit } = useDialogSubmit(form, o.t, o.errors);
  const row = o.target && o.target !== 'new' ? o.target : null;
  useEffect(() => {
    if (!o.target) return;
    form.resetFields();
    const v = o.values(o.target);
    if (v) form.setFieldsValue(v);
    // Filled as the dialog opens (a new target), not again when the page renders a new `values`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [o.target, form]);

  const save = <A extends RouteDef, U extends RouteDef>(to: SaveTo<A, U>, body: (v: V) => NonNullable<Body<A>> & Omit<NonNullable<Body<U>>, 'id'>) =>
    submit(async (v) => {
      const b = body(v);
      // The body's type is checked against both operations above; the call cannot see it through the generics.
      if (row) await call(to.update as Callable<RouteDef>, { body: { ...b, id: row.id } } as never);
      else await call(to.add as Callable<RouteDef>, { body: b } as never);
      void message.success(row ? to.updated : to.added);
      o.onDone();
      o.onClose();
    });

  return { form, row, saving, submit, save };
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
  /** The dialog's form: given, the children are its items, in a vertical form named `formName`. */
  form?: FormInstance;
  formName?: string;
  children?: ReactNode;
}

/**
 * The Modal of an add/edit form dialog: kept mounted (forceRender) so the form exists before it
 * opens, destroyed when hidden. With `form`, it is also the Form around its items, laid out as
 * every dialog of the console lays it (labels above, required fields marked).
 */
export function FormDialog({ saving, onSubmit, top = '8vh', scrollBody, form, formName, children, ...rest }: FormDialogProps) {
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
      {form ? (
        <Form form={form} name={formName} layout="vertical" requiredMark>
          {children}
        </Form>
      ) : (
        children
      )}
    </Modal>
  );
}
