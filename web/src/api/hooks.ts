import { useMutation, useQuery, useQueryClient, type UseQueryOptions } from '@tanstack/react-query';
import { App } from 'antd';
import type { Callable, CallInput, Result, RouteDef } from '@coldwatch/contract';
import { useApiErrorToast } from '../ui/useApiErrorToast';
import { call, callAhead, callSaying, keyOf, upload } from './call';

/** An operation's answer through TanStack Query, keyed by the operation and its input. */
export function useCall<D extends RouteDef>(def: Callable<D>, input?: CallInput<D>, opts: Omit<UseQueryOptions<Result<D>>, 'queryKey' | 'queryFn'> = {}) {
  return useQuery<Result<D>>({
    queryKey: keyOf(def, input ?? {}),
    queryFn: () => (call as (d: Callable<D>, i?: CallInput<D>) => Promise<Result<D>>)(def, input),
    ...opts,
  });
}

/**
 * The same, for a page that is not behind the login (/exDetail): a failure is the page's to
 * show, never a session reaction (its 401 is a link's, not a session's; api/client.ts `quiet`).
 */
export function useQuietCall<D extends RouteDef>(def: Callable<D>, input?: CallInput<D>, opts: Omit<UseQueryOptions<Result<D>>, 'queryKey' | 'queryFn'> = {}) {
  return useQuery<Result<D>>({
    queryKey: keyOf(def, input ?? {}),
    queryFn: () => (callAhead as (d: Callable<D>, i?: CallInput<D>) => Promise<Result<D>>)(def, input),
    ...opts,
  });
}

export interface ActionOptions<D extends RouteDef> {
  /** The success toast: the server's message by default (spec §8, in the user's language); false for none. */
  success?: string | false;
  /** Operations whose cached answers are stale after this one (lists, details). */
  invalidates?: Callable<RouteDef>[];
  /** After success, with the result (close the dialog, reload the table). */
  onDone?: (result: Result<D>, input: CallInput<D>) => void;
  /** A failure is shown as an error toast unless this returns true (the form shows it on its fields). */
  onFailed?: (error: unknown) => boolean | void;
}

/**
 * A change (add, update, delete, status…) as one mutation: busy state while it runs, the
 * §8 success message or the failure's message as a toast, and the stale lists refetched.
 * Components keep no saving flags of their own.
 */
export function useAction<D extends RouteDef>(def: Callable<D>, opts: ActionOptions<D> = {}) {
  return useChange<D, CallInput<D>>((input) => (callSaying as (d: Callable<D>, i: CallInput<D>) => ReturnType<typeof callSaying<D>>)(def, input), opts);
}

/** The same for an upload operation: `run` takes the file (and the operation's input when it has one). */
export function useUpload<D extends RouteDef>(def: Callable<D>, opts: ActionOptions<D> = {}) {
  return useChange<D, { file: File } & CallInput<D>>(({ file, ...input }) => (upload as (d: Callable<D>, f: File, i: CallInput<D>) => ReturnType<typeof upload<D>>)(def, file, input as CallInput<D>), opts);
}

function useChange<D extends RouteDef, I>(send: (input: I) => Promise<{ result: Result<D>; msg: string }>, opts: ActionOptions<D>) {
  const qc = useQueryClient();
  const { message } = App.useApp();
  const toastError = useApiErrorToast();
  const m = useMutation({
    mutationFn: send,
    onSuccess: async ({ result, msg }, input) => {
      if (opts.success !== false) void message.success(opts.success ?? msg);
      await Promise.all((opts.invalidates ?? []).map((d) => qc.invalidateQueries({ queryKey: keyOf(d) })));
      opts.onDone?.(result, input as CallInput<D>);
    },
    onError: (e) => {
      if (!opts.onFailed?.(e)) toastError(e);
    },
  });
  return {
    /** Runs the change; resolves with the result, or undefined when it failed (already shown). */
    run: (input: I) => m.mutateAsync(input).then((r) => r.result).catch(() => undefined),
    busy: m.isPending,
    error: m.error,
  };
}
